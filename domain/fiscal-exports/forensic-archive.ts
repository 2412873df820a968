import { createHash } from 'node:crypto';
import { type AnchorRow, trustedCaPems } from '../anchoring/index.js';
import {
  type ClosingRow,
  chainClosings,
  checkIntegrity,
  type FiscalChain,
  type IntegrityScope,
} from '../ledger/index.js';
import { AppError } from '../shared/app-error.js';
import type { FileOutput } from '../shared/file-output.js';
import type { OperationContext } from '../shared/operation.js';
import { softwareIdentity } from '../shared/software.js';
import { writeZip, ZipTooLargeError } from '../shared/zip-writer.js';
import { verifyGuide } from './forensic-guide.js';
import { anchorLine, closingLine, entryLines } from './forensic-lines.js';
import { VERIFY_PY } from './forensic-verifier.js';
import { chainsInScope } from './report-scope.js';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const jsonl = (rows: readonly unknown[]) => rows.map((r) => `${JSON.stringify(r)}\n`).join('');

/**
 * The forensic archive of the chains in scope: every entry with the exact bytes hashed, every
 * closing with its sealed text, every anchor with its DER token and its authority's root
 * certificate, a fresh integrity check, a manifest with the SHA-256 of each file, and the guide
 * (VERIFY.md, verify.py) to check it all with standard tools. The operation reads one snapshot
 * (REPEATABLE READ), so the files agree with each other whatever is appended meanwhile.
 */
export async function forensicArchive(ctx: OperationContext, scope: IntegrityScope): Promise<FileOutput> {
  const now = ctx.clock.now();
  const heads = await chainsInScope(ctx.tx, scope);
  const total = heads.reduce((sum, h) => sum + h.length, 0);
  // The archive is built in memory (measured: 100,000 entries make 77 MB in 12 s, 370 MB of memory).
  const limit = ctx.deps.config.forensicExportMaxEntries;
  if (total > limit) {
    throw new AppError(
      'FORENSIC_EXPORT_TOO_LARGE',
      `These chains hold ${total} entries; one archive holds at most ${limit} (FORENSIC_EXPORT_MAX_ENTRIES). Export one chain at a time with sub_tenant_id.`,
      { body: { entries: total, limit } },
    );
  }
  const integrity = await checkIntegrity(ctx.tx, scope, now, await trustedCaPems(ctx.tx, ctx.deps.config));
  const entryParts: Buffer[] = [];
  const closings: ClosingRow[] = [];
  for (const head of heads) {
    const chain: FiscalChain = {
      tenantId: scope.tenantId,
      environment: scope.environment,
      subTenantId: head.subTenantId,
    };
    for await (const lines of entryLines(ctx.tx, chain)) entryParts.push(Buffer.from(jsonl(lines), 'utf8'));
    closings.push(
      ...(await chainClosings(ctx.tx, chain)
        .orderByRaw("array_position(array['daily', 'monthly', 'yearly'], type), period_start")
        .select<ClosingRow[]>('*')),
    );
  }
  const closingIds = new Set(closings.map((c) => c.id));
  const anchors = (
    await ctx
      .tx('fiscal_anchors')
      .where({ tenant_id: scope.tenantId, environment: scope.environment, type: 'closing' })
      .modify((q) => {
        if (scope.subTenantId) q.andWhere({ sub_tenant_id: scope.subTenantId });
      })
      .orderBy([{ column: 'created_at' }, { column: 'id' }])
      .select<AnchorRow[]>('*')
  ).filter((a) => closingIds.has(a.entity_id));

  const files: { path: string; content: Buffer }[] = [];
  const certificates = new Map<string, Buffer>();
  const anchorLines = anchors.map((a) => {
    let caFile: string | null = null;
    if (a.ca_certificate) {
      const pem = Buffer.from(a.ca_certificate, 'utf8');
      caFile = `certificates/${sha256(pem).slice(0, 16)}.pem`;
      certificates.set(caFile, pem);
    }
    const tokenFile = a.token ? `anchors/${a.id}.tsr` : null;
    if (tokenFile && a.token) files.push({ path: tokenFile, content: Buffer.from(a.token, 'base64') });
    return anchorLine(a, tokenFile, caFile);
  });
  for (const [path, content] of certificates) files.push({ path, content });

  const tenant = await ctx.tx('tenants').where({ id: scope.tenantId }).first<{ name: string; siret: string | null }>();
  const anchoredIndex = anchorLines.findIndex((a) => a.status === 'anchored' && a.token_file && a.ca_certificate_file);
  const main = [
    {
      path: 'VERIFY.md',
      content: Buffer.from(
        verifyGuide({
          generatedAt: now.toISOString(),
          tenantName: tenant?.name ?? scope.tenantId,
          environment: scope.environment,
          entries: total,
          closings: closings.length,
          anchors: anchors.length,
          anchoredLine: anchoredIndex < 0 ? null : anchoredIndex + 1,
          builtinAuthority: anchors.some((a) => a.tsa_url === null && a.status === 'anchored'),
        }),
        'utf8',
      ),
    },
    { path: 'verify.py', content: Buffer.from(VERIFY_PY, 'utf8') },
    { path: 'integrity.json', content: Buffer.from(`${JSON.stringify(integrity, null, 2)}\n`, 'utf8') },
    { path: 'entries.jsonl', content: Buffer.concat(entryParts) },
    {
      path: 'closings.jsonl',
      content: Buffer.from(jsonl(closings.map(closingLine)), 'utf8'),
    },
    { path: 'anchors.jsonl', content: Buffer.from(jsonl(anchorLines), 'utf8') },
  ];
  const all = [...main, ...files];
  const manifest = {
    format: 'fiscal-forensic-export',
    format_version: 1,
    generated_at: now.toISOString(),
    software: softwareIdentity(),
    tenant: { id: scope.tenantId, name: tenant?.name ?? null, siret: tenant?.siret ?? null },
    environment: scope.environment,
    sub_tenant_id: scope.subTenantId,
    chains: heads.map((h) => ({ sub_tenant_id: h.subTenantId, entries: h.length, last_chain_hash: h.chainHash })),
    counts: {
      chains: heads.length,
      entries: total,
      closings: closings.length,
      anchors: anchors.length,
      anchored: anchors.filter((a) => a.status === 'anchored').length,
      integrity_valid: integrity.valid,
    },
    hashing: {
      data_hash: 'SHA-256 (hex) of canonical_data, the RFC 8785 canonical JSON of the entry data, UTF-8',
      chain_hash: 'SHA-256 (hex) of previous_hash || data_hash (two hex strings); previous_hash of entry 1 = 64 zeros',
      closing_hash: 'SHA-256 (hex) of canonical_data, the RFC 8785 canonical JSON of the closing',
      anchor: 'RFC 3161 time-stamp token whose message imprint (SHA-256) is closing_hash',
    },
    files: all.map((f) => ({ path: f.path, bytes: f.content.length, sha256: sha256(f.content) })),
  };
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  try {
    return {
      content: writeZip(
        [{ path: 'manifest.json', content: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`) }, ...all],
        now,
      ),
      contentType: 'application/zip',
      filename: `fiscal-forensic-export-${scope.environment}-${stamp}.zip`,
    };
  } catch (err) {
    if (!(err instanceof ZipTooLargeError)) throw err;
    throw new AppError('FORENSIC_EXPORT_TOO_LARGE', `${err.message}. Export one chain at a time with sub_tenant_id.`);
  }
}
