import type { IncomingSyncOutcome, StoreIncomingPageInput } from '../../../schemas/incoming-invoices.js';
import { defineCommand } from '../../shared/operation.js';
import { eventData } from '../decide-incoming.js';
import { viewsOf } from '../incoming-reader.js';
import { appendEvent, insertIncoming } from '../incoming-store.js';
import { isPdf, parseIncomingFile, sha256Hex } from '../parse-incoming-file.js';
import { IncomingParseError, type ParsedInvoice } from '../parsed-invoice.js';

/** Parses a file; an unreadable one is still stored, with why (never lost). */
function read(content: Buffer): { parsed: ParsedInvoice | null; parseError: string | null } {
  try {
    return { parsed: parseIncomingFile(content), parseError: null };
  } catch (err) {
    if (err instanceof IncomingParseError) return { parsed: null, parseError: err.message.slice(0, 1000) };
    throw err;
  }
}

export const storeIncomingPage = defineCommand<StoreIncomingPageInput, IncomingSyncOutcome>({
  name: 'store_incoming_page',
  summary:
    "Store one downloaded page of a provider account's inbox (recognising invoices already stored) and move the account's cursor past it, in one transaction.",
  input: 'StoreIncomingPageInput',
  output: 'IncomingSyncOutcome',
  callers: ['system'],
  async run(input, ctx) {
    const outcome = { stored: 0, duplicates: 0, unreadable: 0, cursor: input.after_id };
    const now = ctx.clock.now();
    for (const item of input.items) {
      const content = Buffer.from(item.content, 'base64');
      const { parsed, parseError } = read(content);
      const receivedAt = new Date(item.received_at);
      const result = await insertIncoming(ctx.tx, {
        tenantId: input.tenant_id,
        environment: input.environment,
        subTenantId: input.sub_tenant_id ?? null,
        source: 'provider',
        providerAccountId: input.account_id,
        pdpId: item.pdp_id,
        file: {
          filename: `${item.pdp_id}.${isPdf(content) ? 'pdf' : 'xml'}`,
          contentType: isPdf(content)
            ? 'application/pdf'
            : item.content_type.includes('xml')
              ? item.content_type
              : 'application/xml',
          content,
          sha256: sha256Hex(content),
        },
        parsed,
        parseError,
        receivedAt: Number.isNaN(receivedAt.getTime()) ? now : receivedAt,
      });
      if (result.duplicate) {
        outcome.duplicates++;
        continue;
      }
      outcome.stored++;
      if (parseError) outcome.unreadable++;
      await appendEvent(ctx.tx, result.row, {
        status: 'received',
        statusCode: null,
        actor: { kind: 'system' },
        at: now,
      });
      const [view] = await viewsOf(ctx.tx, [result.row]);
      await ctx.events.emit('invoice.incoming.received', eventData(view), {
        tenantId: input.tenant_id,
        environment: input.environment,
      });
    }
    await ctx.tx.raw(
      `insert into incoming_sync_cursors (account_id, tenant_id, environment, sub_tenant_id, after_id, synced_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?)
       on conflict (account_id) do update set after_id = excluded.after_id, synced_at = excluded.synced_at,
         updated_at = excluded.updated_at
       where incoming_sync_cursors.tenant_id = excluded.tenant_id`,
      [input.account_id, input.tenant_id, input.environment, input.sub_tenant_id ?? null, input.after_id, now, now],
    );
    return outcome;
  },
});
