import type { Knex } from 'knex';
import type { Clock } from '../../shared/clock.js';
import type { Config } from '../../shared/config.js';
import { OpenapiAccount } from './openapi-account.js';
import { DEFAULT_OPENAPI_HTTP } from './openapi-http.js';
import { OpenapiSignatureProvider } from './openapi-provider.js';
import type { SignatureProvider } from './signature-provider.js';

/** The signature provider as the container gives it: Openapi EU-SES with the operator's account. */
export interface SignatureProviders {
  /** The configured Openapi account (admin routes, tokens). */
  openapiAccount: OpenapiAccount;
  signatureProvider: SignatureProvider;
}

export function signatureProvidersFor(config: Config, db: Knex, clock: Clock): SignatureProviders {
  const openapiAccount = new OpenapiAccount({
    db,
    appKey: config.appKey,
    clock,
    http: { ...DEFAULT_OPENAPI_HTTP, timeoutMs: config.openapiTimeoutMs },
    baseUrl: config.openapiBaseUrl,
  });
  return { openapiAccount, signatureProvider: new OpenapiSignatureProvider(openapiAccount) };
}

declare module '../../shared/deps.js' {
  interface Deps {
    /** The Openapi account of the signature provider (`/v1/admin/openapi/*`). */
    openapiAccount: OpenapiAccount;
    /** The signature provider of production requests (Openapi EU-SES); the sandbox uses the signing page. */
    signatureProvider: SignatureProvider;
  }
}
