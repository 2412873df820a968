import { readFileSync } from 'node:fs';
import { luhn } from './luhn.js';
import { DEFAULT_RATE_LIMITS, type RateLimitName, type RateWindows } from './rate-limit-defaults.js';

/** How a parser reports a bad value; each call is one line of the boot error, prefixed with the variable. */
export interface SettingReport {
  /** `NAME: why (got "shown")`; `shown` is the value itself unless given (to mask a password). */
  fail(why: string, shown?: string): void;
  /** `NAME: text`, for messages that must not echo the value. */
  problem(text: string): void;
}

/** Reads one variable's trimmed text (its default when unset or empty) into its typed value. */
export type SettingParser<T> = (value: string, report: SettingReport) => T;

/** The text as given; empty is null. */
export const optionalText: SettingParser<string | null> = (value) => value || null;

/** The text as given (these settings have a non-empty default). */
export const text: SettingParser<string> = (value) => value;

export function integer(min: number, max: number): SettingParser<number> {
  return (value, report) => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max) report.fail(`must be an integer from ${min} to ${max}`);
    return n;
  };
}

export const boolean: SettingParser<boolean> = (value, report) => {
  const lower = value.toLowerCase();
  if (!['true', 'false', '1', '0'].includes(lower)) report.fail('must be true or false', lower);
  return lower === 'true' || lower === '1';
};

export function oneOf<T extends string>(allowed: readonly T[]): SettingParser<T> {
  return (value, report) => {
    if (!allowed.includes(value as T)) report.fail(`must be one of ${allowed.join(', ')}`);
    return value as T;
  };
}

/** An optional http(s) URL; `trimSlashes` drops trailing slashes first (a base URL paths are appended to). */
export function httpUrl(options: { trimSlashes?: boolean } = {}): SettingParser<string | null> {
  return (value, report) => {
    const url = options.trimSlashes ? value.replace(/\/+$/, '') : value;
    if (url && !isHttpUrl(url)) report.fail('must be an http(s) URL', url);
    return url || null;
  };
}

/** An optional postgres:// URL; its password is masked in the message. */
export const postgresUrl: SettingParser<string | null> = (value, report) => {
  if (value && !/^postgres(ql)?:\/\/[^\s]+$/.test(value)) {
    report.fail('must be a postgres:// or postgresql:// URL', value.replace(/:[^:@/]*@/, ':***@'));
  }
  return value || null;
};

/** An optional smtp(s):// URL; never echoed, it may hold a password. */
export const smtpUrl: SettingParser<string | null> = (value, report) => {
  if (value && !/^smtps?:\/\/\S+$/.test(value)) report.problem('must be an smtp:// or smtps:// URL');
  return value || null;
};

/** An optional 32-byte key; never echoed. */
export const appKey: SettingParser<Buffer | null> = (value, report) => {
  if (!value) return null;
  const key = parseAppKey(value);
  if (!key) report.problem('must be base64:<32 bytes> or 64 hexadecimal characters');
  return key;
};

export function parseAppKey(text: string): Buffer | null {
  if (/^[0-9a-f]{64}$/i.test(text)) return Buffer.from(text, 'hex');
  const match = /^base64:([A-Za-z0-9+/]+={0,2})$/.exec(text);
  if (!match) return null;
  const key = Buffer.from(match[1], 'base64');
  return key.length === 32 ? key : null;
}

/** Comma-separated browser origins, without trailing slashes. */
export const origins: SettingParser<string[]> = (value, report) => {
  const list = value
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of list) {
    if (!isHttpUrl(origin) || new URL(origin).origin !== origin.replace(/\/$/, '')) {
      report.fail('each entry must be an origin such as https://app.example.com', origin);
    }
  }
  return list.map((o) => o.replace(/\/$/, ''));
};

/** A body size such as `1mb`, `512kb` or `4096` (bytes), lower-cased for koa-body. */
export const byteSize: SettingParser<string> = (value, report) => {
  const lower = value.toLowerCase();
  if (!/^\d+(b|kb|mb)?$/.test(lower)) report.fail('must be a size such as 1mb or 512kb', lower);
  return lower;
};

/** A non-negative decimal up to 1000. */
export const scale: SettingParser<number> = (value, report) => {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || n > 1000) report.fail('must be a number from 0 to 1000');
  return n;
};

/** Comma-separated whole seconds: at most 20 of them, each at most a week. */
export const secondsList: SettingParser<number[]> = (value, report) => {
  const parts = value.split(',').map((part) => part.trim());
  const seconds = parts.map(Number);
  if (parts.length > 20 || !parts.every((part) => /^\d+$/.test(part)) || seconds.some((n) => n > 7 * 86400)) {
    report.fail('must be at most 20 comma-separated whole seconds, each at most 604800');
  }
  return seconds;
};

/** The specification's limits with the JSON's named limits merged over them. */
export const rateLimits: SettingParser<Record<RateLimitName, RateWindows>> = (value, report) => {
  const limits = { ...DEFAULT_RATE_LIMITS };
  for (const [name, windows] of Object.entries(parseWindows(value, report))) {
    if (!(name in DEFAULT_RATE_LIMITS)) {
      report.problem(`unknown limit ${JSON.stringify(name)} (known: ${Object.keys(DEFAULT_RATE_LIMITS).join(', ')})`);
    } else limits[name as RateLimitName] = windows;
  }
  return limits;
};

/** Limits for single identities: `key:<id>`, `user:<id>`, `tenant:<id>`, `ip:<address>`. */
export const rateLimitOverrides: SettingParser<Record<string, RateWindows>> = (value, report) => {
  const overrides = parseWindows(value, report);
  for (const identity of Object.keys(overrides)) {
    if (!/^(key|user|tenant|ip):\S+$/.test(identity)) {
      report.problem(`identity ${JSON.stringify(identity)} must be key:, user:, tenant: or ip: followed by a value`);
    }
  }
  return overrides;
};

/** `{"name": {"per_minute": n, "per_hour": n}}`, each count a positive integer. */
function parseWindows(text: string, report: SettingReport): Record<string, RateWindows> {
  if (!text) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    report.problem('must be a JSON object');
    return {};
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    report.problem('must be a JSON object');
    return {};
  }
  const out: Record<string, RateWindows> = {};
  for (const [name, value] of Object.entries(parsed as Record<string, unknown>)) {
    const windows = value as Record<string, unknown>;
    const keys = value && typeof value === 'object' ? Object.keys(windows) : [];
    const valid =
      keys.length > 0 &&
      keys.every(
        (k) => (k === 'per_minute' || k === 'per_hour') && Number.isInteger(windows[k]) && (windows[k] as number) > 0,
      );
    if (!valid) {
      report.problem(`${name} must be {"per_minute": n, "per_hour": n} with positive integers`);
      continue;
    }
    out[name] = windows as RateWindows;
  }
  return out;
}

/** PEM certificates given inline (`-----BEGIN ...`, `\n` allowed for newlines) or as a file path. */
export const pemCertificates: SettingParser<string | null> = (value, report) => {
  if (!value) return null;
  let pem = value.replace(/\\n/g, '\n');
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
    try {
      pem = readFileSync(value, 'utf8');
    } catch (err) {
      report.problem(`cannot read ${JSON.stringify(value)} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
      return null;
    }
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
    report.problem('holds no PEM certificate (-----BEGIN CERTIFICATE-----)');
    return null;
  }
  return pem;
};

/** An optional SIREN: 9 digits (spaces ignored) with a valid Luhn check digit. */
export const siren: SettingParser<string | null> = (value, report) => {
  const digits = value.replace(/\s/g, '') || null;
  if (digits && !(/^[0-9]{9}$/.test(digits) && luhn(digits))) {
    report.fail('must be a SIREN: 9 digits with a valid check digit', digits);
  }
  return digits;
};

/** An optional intra-EU VAT number: a country prefix and 2 to 13 letters or digits (spaces ignored), upper-cased. */
export const vatNumber: SettingParser<string | null> = (value, report) => {
  const compact = value.replace(/\s/g, '').toUpperCase() || null;
  if (compact && !/^[A-Z]{2}[0-9A-Z]{2,13}$/.test(compact)) {
    report.fail('must be an intra-EU VAT number (FR + 2 key characters + SIREN for France)', compact);
  }
  return compact;
};

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
