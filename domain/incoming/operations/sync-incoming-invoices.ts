import type { IncomingSyncOutcome, SyncIncomingInvoicesInput } from '../../../schemas/incoming-invoices.js';
import { cleanText } from '../../shared/clean-text.js';
import { execute } from '../../shared/execute.js';
import { defineCommand } from '../../shared/operation.js';
import type { ProviderAccountRef } from '../../transmission/index.js';
import { INCOMING_FILE_MAX_BYTES } from '../parse-incoming-file.js';
import { getIncomingSyncCursor } from './get-incoming-sync-cursor.js';
import { storeIncomingPage } from './store-incoming-page.js';

/** Provider page size (SuperPDP allows up to 1000; 100 is its default) and pages per run. */
export const INCOMING_PAGE_SIZE = 50;
const MAX_PAGES_PER_RUN = 40;

export const syncIncomingInvoices = defineCommand<SyncIncomingInvoicesInput, IncomingSyncOutcome>({
  name: 'sync_incoming_invoices',
  summary:
    "Read a provider account's inbox from its cursor (provider-apis.md §1.7): download each new invoice's original file, store it (an unreadable file with its parse error), and move the cursor after each stored page. Provider calls happen outside any transaction.",
  input: 'SyncIncomingInvoicesInput',
  output: 'IncomingSyncOutcome',
  callers: ['system'],
  transactional: false,
  async run(input, ctx) {
    const provider = ctx.deps.einvoicingProvider;
    const account: ProviderAccountRef = {
      id: input.account_id,
      tenantId: input.tenant_id,
      environment: input.environment,
    };
    let { after_id: cursor } = await execute(getIncomingSyncCursor, input, ctx.caller, ctx.deps);
    const total: IncomingSyncOutcome = { stored: 0, duplicates: 0, unreadable: 0, cursor };
    for (let pages = 0; pages < MAX_PAGES_PER_RUN; pages++) {
      const page = await provider.listIncoming(account, cursor, INCOMING_PAGE_SIZE);
      if (page.items.length === 0) break;
      const items = [];
      for (const summary of page.items) {
        const original = await provider.downloadOriginal(account, summary.pdpId);
        // What the provider says is cleaned before the page's input schema sees it: a NUL in one
        // id, or a file past the size limit, must not refuse the whole page again at every retry.
        // A file over the limit is kept cut just past it, and stored as unreadable (too large).
        items.push({
          pdp_id: cleanText(summary.pdpId, 64) ?? 'unknown',
          received_at: cleanText(summary.createdAt, 100) ?? '',
          content_type: cleanText(original.contentType, 200) ?? '',
          content: original.bytes.subarray(0, INCOMING_FILE_MAX_BYTES + 1).toString('base64'),
        });
      }
      const afterId = items[items.length - 1].pdp_id;
      const stored = await execute(storeIncomingPage, { ...input, after_id: afterId, items }, ctx.caller, ctx.deps);
      total.stored += stored.stored;
      total.duplicates += stored.duplicates;
      total.unreadable += stored.unreadable;
      total.cursor = afterId;
      cursor = page.items[page.items.length - 1].pdpId;
      if (!page.hasAfter) break;
    }
    return total;
  },
});
