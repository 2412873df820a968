import type { RegisterIncomingInvoiceInput } from '../../../schemas/incoming-invoices.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { requireSubTenant } from '../../sub-tenants/sub-tenant-store.js';
import { eventData } from '../decide-incoming.js';
import { viewsOf } from '../incoming-reader.js';
import { insertIncoming } from '../incoming-store.js';
import type { IncomingInvoiceView } from '../incoming-view.js';
import { INCOMING_FILE_MAX_BYTES, isPdf, parseIncomingFile, sha256Hex } from '../parse-incoming-file.js';
import { IncomingParseError } from '../parsed-invoice.js';

const refuse = (message: string) => AppError.validation({ file: [message] });

export const registerIncomingInvoice = defineCommand<RegisterIncomingInvoiceInput, IncomingInvoiceView>({
  name: 'register_incoming_invoice',
  summary:
    'Register a supplier invoice received outside the e-invoicing network for a sub-tenant: a Factur-X PDF, UBL or CII file (10 MB at most), parsed into its fields. XML with a DOCTYPE is refused (422). The same invoice registered twice (same file, or same seller SIRET and number) answers 409 with `existing_id`. Free of charge.',
  input: 'RegisterIncomingInvoiceInput',
  output: 'IncomingInvoice',
  callers: ['tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    const { tenantId, environment } = ctx.caller;
    if (!tenantId || !environment) throw new AppError('FORBIDDEN', 'Registration needs a secret key.');
    const subTenant = await requireSubTenant(
      ctx.tx,
      { tenantId, environment, subTenantId: ctx.caller.subTenantId ?? null },
      input.id,
    );
    const content = Buffer.from(input.file.content, 'base64');
    if (content.length === 0) throw refuse('is empty');
    if (content.length > INCOMING_FILE_MAX_BYTES) throw refuse('must be at most 10 MB');
    let parsed: ReturnType<typeof parseIncomingFile>;
    try {
      parsed = parseIncomingFile(content);
    } catch (err) {
      if (err instanceof IncomingParseError) throw refuse(`cannot be read as an invoice: ${err.message}`);
      throw err;
    }
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
