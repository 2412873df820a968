import { Writable } from 'node:stream';
import test from 'ava';
import { createLogger } from '../../domain/shared/logger.js';

test('logs are JSON lines and secrets are redacted wherever they appear', (t) => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const log = createLogger('info', 'test', sink);
  log.info(
    {
      req: {
        headers: {
          authorization: 'Bearer very-secret-token',
          'x-api-key': 'sk_live_abcdefghijklmnopqrstuvwxyz123456',
          'x-tenant-key': 'sk_test_abcdefghijklmnopqrstuvwxyz123456',
          cookie: 'session=abc',
          accept: 'application/json',
        },
      },
      body: { password: 'hunter2hunter2', email: 'a@example.com' },
      webhook: { secret: 'whsec_abcdefghijklmnopqrstuvwxyz123456' },
    },
    'request',
  );
  t.is(lines.length, 1);
  const entry = JSON.parse(lines[0]);
  t.is(entry.level, 'info');
  t.is(entry.req.headers.accept, 'application/json');
  t.is(entry.body.email, 'a@example.com');
  for (const secret of ['very-secret-token', 'sk_live_', 'sk_test_', 'session=abc', 'hunter2', 'whsec_']) {
    t.false(lines[0].includes(secret), `${secret} is not logged`);
  }
  t.is(entry.req.headers.authorization, '[REDACTED]');
});
