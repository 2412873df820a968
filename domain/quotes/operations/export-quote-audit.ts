import type { QuoteAuditExportInput } from '../../../schemas/quotes.js';
import { AppError } from '../../shared/app-error.js';
import type { FileOutput } from '../../shared/file-output.js';
import { defineQuery } from '../../shared/operation.js';
import { AUDIT_EXPORT_COLUMNS, auditExportRows, csvField, readAcrossTenants } from '../admin-quotes.js';

const BOM = '\uFEFF';

export const exportQuoteAudit = defineQuery<QuoteAuditExportInput, FileOutput>({
  name: 'export_quote_audit',
  summary:
    'The quote audit entries of every tenant between two dates (UTC, inclusive) as CSV: RFC 4180 (CRLF, quoted fields), UTF-8 with a byte-order mark so spreadsheets read the accents; one row per entry with its chain hashes.',
  input: 'QuoteAuditExportInput',
  output: 'QuoteAuditExportFile',
  callers: ['user'],
  permission: 'admin access',
  async run(input, ctx) {
    if (input.date_from && input.date_to && input.date_to < input.date_from) {
      throw AppError.validation({ date_to: ['must be on or after date_from'] });
    }
    await readAcrossTenants(ctx.tx);
    const rows = await auditExportRows(ctx.tx, input.date_from, input.date_to);
    const lines = [
      AUDIT_EXPORT_COLUMNS.join(','),
      ...rows.map((r) =>
        [
          new Date(r.created_at).toISOString(),
          r.tenant_id,
          r.quote_id,
          r.quote_number,
          r.sequence_number,
          r.action,
          r.actor,
          r.actor_ip,
          r.details,
          r.previous_chain_hash,
          r.chain_hash,
        ]
          .map(csvField)
          .join(','),
      ),
    ];
    const name = `quote-audit-${input.date_from ?? 'start'}-${input.date_to ?? 'now'}.csv`;
    return {
      content: Buffer.from(`${BOM}${lines.join('\r\n')}\r\n`, 'utf8'),
      contentType: 'text/csv; charset=utf-8',
      filename: name,
    };
  },
});
