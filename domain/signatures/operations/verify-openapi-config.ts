import type { EmptyInput } from '../../../schemas/common.js';
import type { OpenapiVerification } from '../../../schemas/signature-provider-admin.js';
import { isAppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import {
  missingScopes,
  type OpenapiAccount,
  type OpenapiAccountConfig,
  optionalScopes,
  requiredScopes,
  tokenOf,
} from '../provider/openapi-account.js';
import { assertOk, jsonOf, messageOf } from '../provider/openapi-http.js';
import { appKeyOf, asSystem, recordVerification } from '../provider/openapi-token-store.js';
import { tokenCall } from '../provider/openapi-tokens.js';

type Checked = { refused: string } | { token: string; scopes: string[]; expiresAt: Date | null };

/**
 * Checks the configured account against Openapi (provider-apis.md §2.2): the e-mail and API key
 * (HTTP Basic on the OAuth host) and the scopes of the service's token (`GET /tokens/{token}`), minted
 * first when there is none, minted again when Openapi no longer knows it. A refused API key is an
 * answer (ok: false, with the provider's message), not an error; an unreachable provider is 503.
 */
export const verifyOpenapiConfig = defineCommand<EmptyInput, OpenapiVerification>({
  name: 'verify_openapi_config',
  summary:
    "Admin: check the signature provider's account at Openapi: the e-mail and API key, and that the service's token (minted if there is none) holds the scopes signature requests need. Answers ok with the missing scopes, and records the outcome.",
  input: 'EmptyInput',
  output: 'OpenapiVerification',
  callers: ['user'],
  permission: 'admin access',
  transactional: false,
  async run(_input, ctx) {
    const account = ctx.deps.openapiAccount;
    const config = await account.config();
    const checked = await checkToken(account, config);
    const refused = 'refused' in checked;
    const verification: OpenapiVerification = {
      ok: !refused && missingScopes(checked.scopes, requiredScopes(config.hosts)).length === 0,
      missing_scopes: refused
        ? requiredScopes(config.hosts)
        : missingScopes(checked.scopes, requiredScopes(config.hosts)),
      optional_missing_scopes: refused
        ? optionalScopes(config.hosts)
        : missingScopes(checked.scopes, optionalScopes(config.hosts)),
      message: null,
      checked_at: ctx.clock.now().toISOString(),
    };
    if (refused) verification.message = checked.refused;
    else if (!verification.ok) {
      verification.message = `The service's token lacks required scopes: ${verification.missing_scopes.join(', ')}. Give the account these scopes, or save a token that has them.`;
    }
    await asSystem(ctx.deps, (tx) =>
      recordVerification(
        tx,
        appKeyOf(ctx.deps),
        refused ? { token: null, scopes: [], expiresAt: null } : checked,
        verification,
      ),
    );
    ctx.log.info({ ok: verification.ok, missing: verification.missing_scopes }, 'signature provider account verified');
    return verification;
  },
});

async function checkToken(account: OpenapiAccount, config: OpenapiAccountConfig): Promise<Checked> {
  let token = await usableToken(account, config);
  for (let attempt = 1; ; attempt += 1) {
    if (typeof token !== 'string') return token;
    const answer = await tokenCall(account, config, 'GET', token);
    if (answer.status === 401 || answer.status === 403) {
      return { refused: `Openapi refused the account's e-mail and API key (${answer.status}): ${messageOf(answer)}` };
    }
    // Openapi no longer knows the token (deleted in its console): a new one is minted, once.
    if (answer.status === 404 && attempt === 1) {
      token = await usableToken(account, config, token);
      continue;
    }
    assertOk(answer, 'the token lookup');
    const found = tokenOf({ token, ...(jsonOf(answer, 'the token lookup') as object) });
    return { token, scopes: found.scopes, expiresAt: found.expiresAt };
  }
}

/** The service's token, minted when there is none (or `stale` was refused); a refused mint is an answer. */
async function usableToken(
  account: OpenapiAccount,
  config: OpenapiAccountConfig,
  stale?: string,
): Promise<string | { refused: string }> {
  try {
    return await account.bearer(config, stale);
  } catch (err) {
    if (isAppError(err) && err.code === 'PROVIDER_REFUSED') return { refused: err.message };
    throw err;
  }
}
