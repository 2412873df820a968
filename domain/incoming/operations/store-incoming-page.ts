import type { IncomingSyncOutcome, StoreIncomingPageInput } from '../../../schemas/incoming-invoices.js';
import { defineCommand } from '../../shared/operation.js';
import { isDataRefusal } from '../../shared/pg-errors.js';
import { eventData } from '../decide-incoming.js';
import { viewsOf } from '../incoming-reader.js';
import type { IncomingInvoiceRow } from '../incoming-row.js';
import { appendEvent, type IncomingToStore, insertIncoming } from '../incoming-store.js';
import { isPdf, sha256Hex } from '../parse-incoming-file.js';
import { IncomingParseError, type ParsedInvoice } from '../parsed-invoice.js';
import { readUntrustedFile } from '../read-untrusted-file.js';
import { cleanText } from '../sanitize-parsed.js';

/** Each file of the page, decoded once, with what it says or why it cannot be read, in the page's order. */
type ReadPage = { content: Buffer; parsed: ParsedInvoice | null; parseError: string | null }[];

/** The provider's date of receipt, when it is one PostgreSQL can hold; else now. */
function receivedAt(value: string, now: Date): Date {
  const date = new Date(value);
  const year = date.getUTCFullYear();
  return Number.isNaN(date.getTime()) || year < 1900 || year > 9999 ? now : date;
}

export const storeIncomingPage = defineCommand<StoreIncomingPageInput, IncomingSyncOutcome>({
  name: 'store_incoming_page',
  summary:
    "Store one downloaded page of a provider account's inbox (recognising invoices already stored) and move the account's cursor past it, in one transaction. Every file is stored: one that cannot be read or stored is kept with its error.",
  input: 'StoreIncomingPageInput',
  output: 'IncomingSyncOutcome',
  callers: ['system'],
  // Files are parsed in the parser pool before the transaction opens (see read-untrusted-file.ts).
  async prepare(input, _deps, log): Promise<ReadPage> {
    // One file at a time: a page must not fill the pool's queue that manual registrations share.
    const read: ReadPage = [];
    for (const item of input.items) {
      const content = Buffer.from(item.content, 'base64');
      const outcome = await readUntrustedFile(content, log);
      read.push(
        outcome.ok
          ? { content, parsed: outcome.parsed, parseError: null }
          : { content, parsed: null, parseError: outcome.error },
      );
    }
    return read;
  },
  async run(input, ctx) {
    const read = ctx.prepared as ReadPage;
    const outcome = { stored: 0, duplicates: 0, unreadable: 0, cursor: input.after_id };
    const now = ctx.clock.now();
    for (const [index, item] of input.items.entries()) {
      const { content } = read[index];
      const pdpId = cleanText(item.pdp_id, 64) ?? 'unknown';
      const contentType = cleanText(item.content_type, 200) ?? '';
      const toStore = (parsed: ParsedInvoice | null, parseError: string | null): IncomingToStore => ({
        tenantId: input.tenant_id,
        environment: input.environment,
        subTenantId: input.sub_tenant_id ?? null,
        source: 'provider',
        providerAccountId: input.account_id,
        pdpId,
        file: {
          filename: `${pdpId.replace(/[^\w.-]+/g, '_')}.${isPdf(content) ? 'pdf' : 'xml'}`,
          contentType: isPdf(content)
            ? 'application/pdf'
            : contentType.includes('xml')
              ? contentType
              : 'application/xml',
          content,
          sha256: sha256Hex(content),
        },
        parsed,
        parseError: parseError === null ? null : cleanText(parseError, 1000),
        receivedAt: receivedAt(item.received_at, now),
      });
      // Each file in its own savepoint: whatever one file makes the database refuse undoes that
      // file only, which is then kept as received with the refusal as its error. One bad supplier
      // file can never hold back the page, the cursor, and so the whole inbox.
      const store = (parsed: ParsedInvoice | null, parseError: string | null) =>
        ctx.tx.transaction(async (sp) => {
          const result = await insertIncoming(sp, toStore(parsed, parseError));
          if (!result.duplicate) {
            await appendEvent(sp, result.row, {
              status: 'received',
              statusCode: null,
              actor: { kind: 'system' },
              at: now,
            });
          }
          return result;
        });
      let parseError = read[index].parseError;
      let result: Awaited<ReturnType<typeof insertIncoming>>;
      try {
        result = await store(read[index].parsed, parseError);
      } catch (err) {
        if (!isDataRefusal(err) && !(err instanceof IncomingParseError)) throw err;
        ctx.log.warn({ err, pdp_id: pdpId }, 'incoming file refused by the database; kept unparsed');
        parseError = `the file's values cannot be stored: ${(err as Error).message}`;
        result = await store(null, parseError);
      }
      if (result.duplicate) {
        outcome.duplicates++;
        continue;
      }
      outcome.stored++;
      if (parseError) outcome.unreadable++;
      await announce(ctx, input, result.row);
    }
    await ctx.tx.raw(
      `insert into incoming_sync_cursors (account_id, tenant_id, environment, sub_tenant_id, after_id, synced_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?)
       on conflict (account_id) do update set after_id = excluded.after_id, synced_at = excluded.synced_at,
         updated_at = excluded.updated_at
       where incoming_sync_cursors.tenant_id = excluded.tenant_id`,
      [
        input.account_id,
        input.tenant_id,
        input.environment,
        input.sub_tenant_id ?? null,
        cleanText(input.after_id, 64) ?? input.after_id,
        now,
        now,
      ],
    );
    return outcome;
  },
});

async function announce(
  ctx: Parameters<typeof storeIncomingPage.run>[1],
  input: StoreIncomingPageInput,
  row: IncomingInvoiceRow,
): Promise<void> {
  const [view] = await viewsOf(ctx.tx, [row]);
  await ctx.events.emit('invoice.incoming.received', eventData(view), {
    tenantId: input.tenant_id,
    environment: input.environment,
  });
}
