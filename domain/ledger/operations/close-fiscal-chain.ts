import type { CloseFiscalChainInput, CloseFiscalChainResult } from '../../../schemas/fiscal-closings.js';
import { defineCommand } from '../../shared/operation.js';
import { closeChainThrough } from '../close-chain.js';

/** Counts of the closings one run made. */
/** Schema `CloseFiscalChainResult`: the type comes from the schema. */
export type { CloseFiscalChainResult };

export const closeFiscalChain = defineCommand<CloseFiscalChainInput, CloseFiscalChainResult>({
  name: 'close_fiscal_chain',
  summary:
    'Close every day of one fiscal chain up to the given day, and the months and years it ends, catching up any period a stopped worker missed (the 00:00 UTC schedule).',
  input: 'CloseFiscalChainInput',
  output: 'CloseFiscalChainResult',
  callers: ['system'],
  async run(input, ctx) {
    const chain = { tenantId: input.tenant_id, environment: input.environment, subTenantId: input.sub_tenant_id };
    // Days first: a month's closing then runs after its last day's, both in this transaction.
    const daily = await closeChainThrough(ctx, chain, 'daily', input.date);
    const monthly = await closeChainThrough(ctx, chain, 'monthly', input.date);
    const yearly = await closeChainThrough(ctx, chain, 'yearly', input.date);
    return { daily: daily.length, monthly: monthly.length, yearly: yearly.length };
  },
});
