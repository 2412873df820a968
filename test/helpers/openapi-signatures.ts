import { sealOpenapiSecret } from '../../domain/signatures/provider/openapi-account.js';
import { type ScriptedHttp, startScriptedHttp } from '../fakes/scripted-http.js';
import { postJson, readJson } from './http.js';
import { type SeededTenant, seedPlatformTenant } from './identities.js';
import { minimalPdf } from './minimal-pdf.js';
import { startTestApp, type TestApp } from './test-app.js';

/**
 * Production signature requests carried by Openapi EU-SES in tests: the account, a tenant with a
 * balance, a request through the API, and the provider's objects in the shapes of provider-apis.md §2
 * (test/workers/signature-openapi.test.ts pins them with nock).
 */
export const ESIGN = 'https://esignature.openapi.com';
export const OAUTH = 'https://oauth.openapi.com';

// biome-ignore lint/suspicious/noExplicitAny: tests read bodies loosely
type Json = any;

export const SIGNATURE_DOCUMENT = minimalPdf([{ width: 595, height: 842 }]);

/** The operator's Openapi account, with a service token valid 30 days (no mint needed). */
export async function configureOpenapi(app: TestApp, token = 'tok-ok'): Promise<void> {
  const key = app.deps.config.appKey!;
  await app.ownerDb('signature_provider_config').insert({
    id: 1,
    account_email: 'ops@example.com',
    api_key_sealed: sealOpenapiSecret(key, 'api-key', 'api-key-1'),
    test_mode: false,
    token_sealed: sealOpenapiSecret(key, 'token', token),
    token_expires_at: new Date(Date.now() + 86400_000 * 30),
  });
}

/** A verified platform tenant with a production balance of `balance` EUR. */
export async function productionTenant(app: TestApp, balance = '10.00'): Promise<SeededTenant> {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  await app.ownerDb('balances').where({ tenant_id: tenant.tenantId }).update({ amount: balance });
  return tenant;
}

/** A production request of two signers (Ada by e-mail, Alan by SMS), created through the API. */
export async function createProductionRequest(app: TestApp, tenant: SeededTenant): Promise<Json> {
  const res = await app.request(
    '/api/v1/signatures',
    postJson(
      {
        title: 'Contrat',
        document: SIGNATURE_DOCUMENT.toString('base64'),
        document_name: 'contrat.pdf',
        signers: [
          { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', auth_method: 'email' },
          { first_name: 'Alan', last_name: 'Turing', phone: '+33612345678', auth_method: 'sms' },
        ],
      },
      { 'X-API-Key': tenant.keys.sk_live },
    ),
  );
  const json: Json = await readJson(res);
  if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

export const wrapped = (data: unknown) => ({ data, success: true, message: '', error: null });

/** An Openapi signature object (create answer or detail) for the two signers above. */
export const signatureObject = (
  id: string,
  state: string,
  states: [string, string],
  extra: Record<string, unknown> = {},
) => ({
  id,
  state,
  certificateType: 'EU-SES',
  signatureType: 'pades',
  createdAt: new Date().toISOString(),
  errorNumber: null,
  errorMessage: null,
  signers: [
    { id: 'ps-1', name: 'Ada', surname: 'Lovelace', email: 'ada@example.com', state: states[0] },
    { id: 'ps-2', name: 'Alan', surname: 'Turing', mobile: '+33612345678', state: states[1] },
  ].map((s, k) => ({ ...s, url: `https://sign.openapi.com/s/${id}-${k + 1}` })),
  ...extra,
});

/**
 * A test app whose Openapi is a scripted loopback server (test/fakes/scripted-http.ts), the account
 * configured: `env` adds the file's settings. `close` stops both.
 */
export async function startScriptedOpenapiApp(
  env: Record<string, string>,
): Promise<{ app: TestApp; openapi: ScriptedHttp; close(): Promise<void> }> {
  const openapi = await startScriptedHttp();
  const app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0', OPENAPI_BASE_URL: openapi.url, ...env } });
  await configureOpenapi(app);
  return {
    app,
    openapi,
    close: async () => {
      await app.close();
      await openapi.close();
    },
  };
}

/** GET /api/v1/signatures/{id} with the tenant's production key: the request as the API shows it. */
export const signatureOf = async (app: TestApp, tenant: SeededTenant, id: string): Promise<Json> =>
  (await readJson(await app.request(`/api/v1/signatures/${id}`, { headers: { 'X-API-Key': tenant.keys.sk_live } })))
    .data;
