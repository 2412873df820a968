import type { Knex } from 'knex';
import type { Clock } from '../shared/clock.js';
import type { Config } from '../shared/config.js';
import { builtinCaPem } from './builtin-authority-store.js';
import { BuiltinTsa } from './builtin-tsa.js';
import { HttpTsaClient } from './http-tsa-client.js';
import type { TimeStampAuthority } from './time-stamp-authority.js';

/** TSA_URL's authority when configured (both environments), else the built-in one. */
export function timeStampAuthorityFor(config: Config, db: Knex, clock: Clock): TimeStampAuthority {
  if (config.tsaUrl && config.tsaCaCertificates) {
    return new HttpTsaClient(config.tsaUrl, config.tsaCaCertificates, config.tsaTimeoutMs);
  }
  return new BuiltinTsa(db, config.appKey, clock);
}

/**
 * The CA certificates a stored anchor may chain to: the built-in authority's (if it was ever
 * made) and TSA_CA_CERT's. An anchor whose stored CA is none of these is not trusted, whatever
 * its own signature says: a forged token under a made-up CA is caught.
 */
export async function trustedCaPems(tx: Knex, config: Pick<Config, 'tsaCaCertificates'>): Promise<string[]> {
  const builtin = await builtinCaPem(tx);
  return [builtin, config.tsaCaCertificates].filter((pem): pem is string => Boolean(pem));
}
