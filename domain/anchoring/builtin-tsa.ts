import type { Knex } from 'knex';
import type { Clock } from '../shared/clock.js';
import { loadOrCreateBuiltinAuthority } from './builtin-authority-store.js';
import { answerTimeStampRequest, type SigningAuthority } from './sign-time-stamp-token.js';
import type { TimeStampAuthority } from './time-stamp-authority.js';

/**
 * The built-in local authority (no TSA_URL): real RFC 3161 tokens, signed in process with a key
 * made once and kept in the database, that `openssl ts -verify` accepts against its CA. It proves
 * when a closing existed only as far as this service's own keys can be trusted: it is named "Local
 * Test / Built-in TSA - not a qualified authority"; production deployments set TSA_URL.
 */
export class BuiltinTsa implements TimeStampAuthority {
  readonly url = null;
  private loaded: Promise<{ signing: SigningAuthority; caPem: string }> | null = null;

  constructor(
    private readonly db: Knex,
    private readonly appKey: Buffer | null,
    private readonly clock: Clock,
  ) {}

  async stamp(request: Buffer): Promise<Buffer> {
    const { signing } = await this.authority();
    return answerTimeStampRequest(signing, request, this.clock.now());
  }

  async trustedCaPems(): Promise<string[]> {
    return [(await this.authority()).caPem];
  }

  private authority() {
    if (!this.appKey) throw new Error('the built-in time-stamp authority needs APP_KEY to seal its keys');
    const appKey = this.appKey;
    this.loaded ??= loadOrCreateBuiltinAuthority(this.db, appKey, this.clock.now()).catch((err: unknown) => {
      this.loaded = null;
      throw err;
    });
    return this.loaded;
  }
}
