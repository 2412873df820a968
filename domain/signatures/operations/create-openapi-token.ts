import type { CreatedOpenapiToken, CreateOpenapiTokenInput } from '../../../schemas/signature-provider-admin.js';
import { defineCommand } from '../../shared/operation.js';
import { tokenOf } from '../provider/openapi-account.js';
import { assertOk, jsonOf } from '../provider/openapi-http.js';
import { appKeyOf, asSystem, storeToken } from '../provider/openapi-token-store.js';
import { tokenView } from '../provider/openapi-tokens.js';

/**
 * `POST /tokens` at Openapi. The token is answered this once; it and its refresh token (which
 * Openapi shows only here) are kept sealed, so the token can be refreshed later.
 */
export const createOpenapiToken = defineCommand<CreateOpenapiTokenInput, CreatedOpenapiToken>({
  name: 'create_openapi_token',
  summary:
    'Admin: make a token of the Openapi account with the given scopes, name and lifetime. Its value is shown this once; the service keeps it and its refresh token encrypted.',
  input: 'CreateOpenapiTokenInput',
  output: 'CreatedOpenapiToken',
  callers: ['user'],
  permission: 'admin access',
  transactional: false,
  async run(input, ctx) {
    const account = ctx.deps.openapiAccount;
    const config = await account.config();
    const request = {
      scopes: input.scopes,
      ...(input.name === undefined ? {} : { name: input.name }),
      ...(input.ttl === undefined ? {} : { ttl: input.ttl }),
    };
    const answer = await account.oauthCall(config, 'POST', '/tokens', request);
    assertOk(answer, 'the token creation');
    const made = tokenOf(jsonOf(answer, 'the token creation'));
    const token = {
      ...made,
      scopes: made.scopes.length ? made.scopes : input.scopes,
      name: made.name ?? input.name ?? null,
    };
    await asSystem(ctx.deps, (tx) => storeToken(tx, appKeyOf(ctx.deps), token, ctx.clock.now()));
    const view = tokenView(token, null, new Set());
    ctx.log.info({ token_id: view.id, scopes: token.scopes }, 'signature provider token created');
    return { ...view, token: token.token };
  },
});
