import type { RegisterIncomingInvoiceInput } from '../../../schemas/incoming-invoices.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { isDataRefusal } from '../../shared/pg-errors.js';
import { requireSubTenant } from '../../sub-tenants/index.js';
import { eventData } from '../decide-incoming.js';
import { viewsOf } from '../incoming-reader.js';
import { insertIncoming } from '../incoming-store.js';
import type { IncomingInvoiceView } from '../incoming-view.js';
import { INCOMING_FILE_MAX_BYTES, isPdf, sha256Hex } from '../parse-incoming-file.js';
import { IncomingParseError, type ParsedInvoice } from '../parsed-invoice.js';
import { readUntrustedFile } from '../read-untrusted-file.js';

const refuse = (message: string) => AppError.validation({ file: [message] });

/** The file and what it says, read by `prepare` before the transaction opens. */
interface ReadFile {
  content: Buffer;
  parsed: ParsedInvoice;
}

export const registerIncomingInvoice = defineCommand<RegisterIncomingInvoiceInput, IncomingInvoiceView>({
  name: 'register_incoming_invoice',
  summary:
    'Register a supplier invoice received outside the e-invoicing network for a sub-tenant: a Factur-X PDF, UBL or CII file (10 MB at most), parsed into its fields. XML with a DOCTYPE is refused (422). The same invoice registered twice (same file, or same seller SIRET and number) answers 409 with `existing_id`. Free of charge.',
  input: 'RegisterIncomingInvoiceInput',
  output: 'IncomingInvoice',
  callers: ['tenant'],
  scope: 'invoices',
  // The file is parsed in the parser pool before the transaction opens: a hostile file costs a
  // pool thread its budget, never the web process's event loop or a connection held in a transaction.
  async prepare(input, _deps, log): Promise<ReadFile> {
    const content = Buffer.from(input.file.content, 'base64');
    if (content.length === 0) throw refuse('is empty');
    if (content.length > INCOMING_FILE_MAX_BYTES) throw refuse('must be at most 10 MB');
    const outcome = await readUntrustedFile(content, log);
    if (!outcome.ok) throw refuse(`cannot be read as an invoice: ${outcome.error}`);
    return { content, parsed: outcome.parsed };
  },
  async run(input, ctx) {
    const { content, parsed } = ctx.prepared as ReadFile;
    const { tenantId, environment } = ctx.caller;
    if (!tenantId || !environment) throw new AppError('FORBIDDEN', 'Registration needs a secret key.');
    const subTenant = await requireSubTenant(
      ctx.tx,
      { tenantId, environment, subTenantId: ctx.caller.subTenantId ?? null },
      input.id,
    );
    const now = ctx.clock.now();
    const stored = await insertIncoming(ctx.tx, {
      tenantId,
      environment,
      subTenantId: subTenant.id,
      source: 'manual',
      providerAccountId: null,
      pdpId: null,
      file: {
        filename: input.file.filename.replace(/[^\w.\- ]+/g, '_').slice(0, 200) || 'invoice',
        contentType: isPdf(content) ? 'application/pdf' : 'application/xml',
        content,
        sha256: sha256Hex(content),
      },
      parsed,
      parseError: null,
      receivedAt: now,
    }).catch((err) => {
      // Sanitised values fit their columns; should one still not, it is the file's fault: a 422.
      if (isDataRefusal(err) || err instanceof IncomingParseError)
        throw refuse(`cannot be stored: ${(err as Error).message}`);
      throw err;
    });
    if (stored.duplicate) {
      throw new AppError(
        'DUPLICATE_INCOMING_INVOICE',
        'This invoice is already registered (same file, or same seller SIRET and number).',
        {
          body: { existing_id: stored.existingId },
        },
      );
    }
    await ctx.tx('incoming_invoice_events').insert({
      tenant_id: tenantId,
      incoming_invoice_id: stored.row.id,
      status: 'received',
      actor: { kind: ctx.caller.kind, credential: ctx.caller.credential ?? null },
      created_at: now,
    });
    const [view] = await viewsOf(ctx.tx, [stored.row]);
    await ctx.events.emit('invoice.incoming.received', eventData(view));
    return view;
  },
});
