import type { EmptyInput } from '../../../schemas/common.js';
import type { OpenapiCredit } from '../../../schemas/signature-provider-admin.js';
import { defineQuery } from '../../shared/operation.js';
import { dateOf } from '../provider/openapi-account.js';
import { assertOk, jsonOf, providerUnavailable } from '../provider/openapi-http.js';

/** A third-party call: it runs outside any transaction. */
export const getOpenapiCredit = defineQuery<EmptyInput, OpenapiCredit>({
  name: 'get_openapi_credit',
  summary:
    "Admin: the credit left in the Openapi account's wallet (`GET /wallet`), which pays for the signature requests sent to the provider.",
  input: 'EmptyInput',
  output: 'OpenapiCredit',
  callers: ['user'],
  permission: 'admin access',
  transactional: false,
  async run(_input, ctx) {
    const account = ctx.deps.openapiAccount;
    const answer = await account.oauthCall(await account.config(), 'GET', '/wallet');
    assertOk(answer, 'the wallet');
    const wallet = (jsonOf(answer, 'the wallet') ?? {}) as Record<string, unknown>;
    const credit = typeof wallet.credit === 'string' ? Number(wallet.credit) : wallet.credit;
    if (typeof credit !== 'number' || !Number.isFinite(credit)) {
      throw providerUnavailable("Openapi's answer to the wallet has no credit.");
    }
    return { credit, currency: 'EUR', updated_at: dateOf(wallet.updatedAt)?.toISOString() ?? null };
  },
});
