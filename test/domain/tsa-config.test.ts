import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { BuiltinTsa } from '../../domain/anchoring/builtin-tsa.js';
import { HttpTsaClient } from '../../domain/anchoring/http-tsa-client.js';
import { timeStampAuthorityFor } from '../../domain/anchoring/time-stamp-authorities.js';
import { systemClock } from '../../domain/shared/clock.js';
import { ConfigError, loadConfig } from '../../domain/shared/config.js';
import { createDatabase } from '../../domain/shared/database.js';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

test('no TSA_URL: the built-in local authority; TSA_URL with its CA: the HTTP client', async (t) => {
  const db = createDatabase('postgres://nobody@127.0.0.1:1/none');
  try {
    t.true(timeStampAuthorityFor(loadConfig({}), db, systemClock) instanceof BuiltinTsa);
    const dir = await mkdtemp(path.join(tmpdir(), 'tsa-ca-'));
    await writeFile(path.join(dir, 'ca.pem'), PEM);
    const config = loadConfig({ TSA_URL: 'https://tsa.example.com/tsr', TSA_CA_CERT: path.join(dir, 'ca.pem') });
    t.like(config, { tsaUrl: 'https://tsa.example.com/tsr', tsaCaCertificates: PEM, tsaTimeoutMs: 10_000 });
    const tsa = timeStampAuthorityFor(config, db, systemClock);
    t.true(tsa instanceof HttpTsaClient);
    t.is(tsa.url, 'https://tsa.example.com/tsr');
    t.deepEqual(await tsa.trustedCaPems(), [PEM]);
    t.is(loadConfig({ TSA_CA_CERT: PEM.replace(/\n/g, '\\n') }).tsaCaCertificates, PEM, 'inline PEM, \\n for newlines');
    await rm(dir, { recursive: true, force: true });
  } finally {
    await db.destroy();
  }
});

test('bad TSA settings are reported clearly', (t) => {
  const err = t.throws(
    () => loadConfig({ TSA_URL: 'ftp://tsa', TSA_CA_CERT: '/nonexistent/ca.pem', TSA_TIMEOUT_MS: '5' }),
    { instanceOf: ConfigError },
  ) as ConfigError;
  t.deepEqual(err.problems, [
    'TSA_URL: must be an http(s) URL (got "ftp://tsa")',
    'TSA_CA_CERT: cannot read "/nonexistent/ca.pem" (ENOENT)',
    "TSA_CA_CERT: is required with TSA_URL (the TSA's root certificate, to verify its time-stamps)",
    'TSA_TIMEOUT_MS: must be an integer from 100 to 120000 (got "5")',
  ]);
});
