import type { CreatedOpenapiToken, OpenapiTokenIdInput } from '../../../schemas/signature-provider-admin.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { tokenOf } from '../provider/openapi-account.js';
import { assertOk, jsonOf } from '../provider/openapi-http.js';
import {
  appKeyOf,
  asSystem,
  deleteStoredToken,
  replaceServiceToken,
  storedRefreshToken,
  storeToken,
} from '../provider/openapi-token-store.js';
import { findProviderToken, tokenCall, tokenView } from '../provider/openapi-tokens.js';

/**
 * `PATCH /tokens/{token}` with the token's refresh token as bearer (provider-apis.md §2.2): Openapi
 * answers a new token and a new refresh token with the same scopes and deletes the old token. The
 * new pair replaces the old one here, and in the configuration when it was the service's token.
 */
export const refreshOpenapiToken = defineCommand<OpenapiTokenIdInput, CreatedOpenapiToken>({
  name: 'refresh_openapi_token',
  summary:
    'Admin: refresh a token of the Openapi account made through these routes: Openapi replaces it with a new token (shown this once) of the same scopes. If the service signs with it, the service switches to the new one.',
  input: 'OpenapiTokenIdInput',
  output: 'CreatedOpenapiToken',
  callers: ['user'],
  permission: 'admin access',
  transactional: false,
  async run(input, ctx) {
    const account = ctx.deps.openapiAccount;
    const appKey = appKeyOf(ctx.deps);
    const { config, token: old } = await findProviderToken(account, input.id);
    const refreshToken =
      old.refreshToken ?? (await asSystem(ctx.deps, (tx) => storedRefreshToken(tx, appKey, input.id)));
    if (!refreshToken) {
      throw new AppError(
        'INVALID_STATE',
        `The service holds no refresh token for ${input.id}: only tokens made or refreshed through these routes can be refreshed. Create a new token instead.`,
      );
    }
    const answer = await tokenCall(account, config, 'PATCH', old.token, refreshToken);
    assertOk(answer, 'the token refresh');
    const made = tokenOf(jsonOf(answer, 'the token refresh'));
    const fresh = { ...made, scopes: made.scopes.length ? made.scopes : old.scopes, name: made.name ?? old.name };
    const now = ctx.clock.now();
    const isService = await asSystem(ctx.deps, async (tx) => {
      await deleteStoredToken(tx, input.id);
      await storeToken(tx, appKey, fresh, now);
      return replaceServiceToken(tx, appKey, old.token, fresh, now);
    });
    const view = tokenView(fresh, isService ? fresh.token : null, new Set());
    ctx.log.info(
      { token_id: input.id, new_token_id: view.id, service_token: isService },
      'signature provider token refreshed',
    );
    return { ...view, token: fresh.token };
  },
});
