import type { OpenapiConfig, SaveOpenapiConfigInput } from '../../../schemas/signature-provider-admin.js';
import { defineCommand } from '../../shared/operation.js';
import { appKeyOf, asSystem, saveConfigRow } from '../provider/openapi-token-store.js';
import { configView } from '../provider/openapi-tokens.js';

/**
 * Saves the operator's Openapi account. The configuration row is visible to the system only, so the
 * write is a short transaction of its own, as the system, under the row's lock.
 */
export const saveOpenapiConfig = defineCommand<SaveOpenapiConfigInput, OpenapiConfig>({
  name: 'save_openapi_config',
  summary:
    "Admin: save the Openapi account the service signs production requests with: its e-mail and API key (stored encrypted), test mode, and optionally a bearer token to use. A new e-mail, API key or test mode drops the service's token unless one is given; run the verification next.",
  input: 'SaveOpenapiConfigInput',
  output: 'OpenapiConfig',
  callers: ['user'],
  permission: 'admin access',
  transactional: false,
  async run(input, ctx) {
    const appKey = appKeyOf(ctx.deps);
    const row = await asSystem(ctx.deps, (tx) =>
      saveConfigRow(tx, appKey, {
        accountEmail: input.account_email,
        apiKey: input.api_key,
        testMode: input.test_mode,
        token: input.token,
        userId: ctx.caller.userId ?? null,
        now: ctx.clock.now(),
      }),
    );
    ctx.log.info(
      { user_id: ctx.caller.userId, test_mode: row.test_mode, token_given: input.token !== undefined },
      'signature provider account saved',
    );
    return configView(appKey, row);
  },
});
