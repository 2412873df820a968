import type { EmptyInput } from '../../../schemas/common.js';
import type { OpenapiTokenList } from '../../../schemas/signature-provider-admin.js';
import { defineQuery } from '../../shared/operation.js';
import { readConfigRow } from '../provider/openapi-account.js';
import { appKeyOf, asSystem, refreshableTokenIds, serviceTokenOf } from '../provider/openapi-token-store.js';
import { listProviderTokens, tokenView } from '../provider/openapi-tokens.js';

/** A third-party call: it runs outside any transaction. */
export const listOpenapiTokens = defineQuery<EmptyInput, OpenapiTokenList>({
  name: 'list_openapi_tokens',
  summary:
    "Admin: the Openapi account's tokens (`GET /tokens`), each by an id and its last 4 characters, with its scopes and expiry, whether the service signs with it and whether it can be refreshed here.",
  input: 'EmptyInput',
  output: 'OpenapiTokenList',
  callers: ['user'],
  permission: 'admin access',
  transactional: false,
  async run(_input, ctx) {
    const account = ctx.deps.openapiAccount;
    const tokens = await listProviderTokens(account, await account.config());
    const appKey = appKeyOf(ctx.deps);
    const { service, refreshable } = await asSystem(ctx.deps, async (tx) => ({
      service: serviceTokenOf(appKey, await readConfigRow(tx)),
      refreshable: await refreshableTokenIds(tx),
    }));
    return tokens.map((token) => tokenView(token, service, refreshable));
  },
});
