import type { EmptyInput } from '../../../schemas/common.js';
import { defineQuery } from '../../shared/operation.js';
import { fiscalScopeOf } from '../fiscal-scope.js';
import { findKillSwitch, type KillSwitchView, toKillSwitchView } from '../kill-switch.js';

export const getKillSwitchStatus = defineQuery<EmptyInput, KillSwitchView>({
  name: 'get_kill_switch_status',
  summary: 'Whether the fiscal kill switch of the key’s environment is active, since when, by whom and why.',
  input: 'EmptyInput',
  output: 'KillSwitchStatus',
  callers: ['tenant'],
  scope: 'fiscal:read',
  async run(_input, ctx) {
    const scope = await fiscalScopeOf(ctx.tx, ctx.caller, undefined);
    return toKillSwitchView(await findKillSwitch(ctx.tx, scope));
  },
});
