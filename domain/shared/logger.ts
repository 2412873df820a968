import { type Logger, pino } from 'pino';

export type { Logger };

/** Header and field names whose values never reach a log line. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.headers["x-tenant-key"]',
  'req.headers["x-publishable-key"]',
  'req.headers["x-service-api-key"]',
  'req.headers["x-csrf-token"]',
  'req.headers["x-xsrf-token"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.password_confirmation',
  '*.secret',
  '*.token',
  '*.api_key',
  '*.key',
  '*.webhook_secret',
  '*.access_token',
  '*.refresh_token',
  '*.code_verifier',
  '*.authorization_code',
  'secret_keys',
  'publishable_keys',
];

export function createLogger(level: string, name: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      name,
      level,
      base: { process: name },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
      formatters: { level: (label) => ({ level: label }) },
    },
    destination as pino.DestinationStream | undefined,
  );
}
