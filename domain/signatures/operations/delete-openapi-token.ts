import type { OpenapiTokenDeleted, OpenapiTokenIdInput } from '../../../schemas/signature-provider-admin.js';
import { defineCommand } from '../../shared/operation.js';
import { assertOk } from '../provider/openapi-http.js';
import { appKeyOf, asSystem, deleteStoredToken, replaceServiceToken } from '../provider/openapi-token-store.js';
import { findProviderToken, tokenCall } from '../provider/openapi-tokens.js';

/**
 * `DELETE /tokens/{token}` at Openapi, the token found by its id. If it was the service's own token,
 * the configuration drops it and the service mints another when it next needs one.
 */
export const deleteOpenapiToken = defineCommand<OpenapiTokenIdInput, OpenapiTokenDeleted>({
  name: 'delete_openapi_token',
  summary:
    "Admin: delete a token of the Openapi account: it stops working at once. Deleting the service's own token makes the service mint a new one when it next calls the provider.",
  input: 'OpenapiTokenIdInput',
  output: 'OpenapiTokenDeleted',
  callers: ['user'],
  permission: 'admin access',
  transactional: false,
  async run(input, ctx) {
    const account = ctx.deps.openapiAccount;
    const { config, token } = await findProviderToken(account, input.id);
    const answer = await tokenCall(account, config, 'DELETE', token.token);
    // Gone between the listing and the deletion: what was asked for is done.
    if (answer.status !== 404) assertOk(answer, 'the token deletion');
    const appKey = appKeyOf(ctx.deps);
    const wasService = await asSystem(ctx.deps, async (tx) => {
      await deleteStoredToken(tx, input.id);
      return replaceServiceToken(tx, appKey, token.token, null, ctx.clock.now());
    });
    ctx.log.info({ token_id: input.id, service_token: wasService }, 'signature provider token deleted');
    return { id: input.id, deleted: true };
  },
});
