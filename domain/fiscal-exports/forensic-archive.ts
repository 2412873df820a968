import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { AnchorRow } from '../anchoring/anchor-store.js';
import { trustedCaPems } from '../anchoring/time-stamp-authorities.js';
import { type ClosingRow, chainClosings } from '../ledger/closing-store.js';
import type { FiscalChain } from '../ledger/fiscal-chain-summary.js';
import { checkIntegrity, type IntegrityScope } from '../ledger/integrity-check.js';
import type { FileOutput } from '../shared/file-output.js';
import type { OperationContext } from '../shared/operation.js';
import { softwareIdentity } from '../shared/software.js';
import { createSpool } from '../shared/spool-file.js';
import { streamZip } from '../shared/zip-stream.js';
import { verifyGuide } from './forensic-guide.js';
import { anchorLine, closingLine, entryLines } from './forensic-lines.js';
import { VERIFY_PY } from './forensic-verifier.js';
import { chainsInScope } from './report-scope.js';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const jsonl = (rows: readonly unknown[]) => rows.map((r) => `${JSON.stringify(r)}\n`).join('');

/** A file of the archive as the manifest lists it: held in memory, or spooled to disk with its size and hash. */
type ArchiveFile =
  | { path: string; content: Buffer }
  | { path: string; size: number; sha256: string; open: () => Readable };

/**
 * The forensic archive of the chains in scope: every entry with the exact bytes hashed, every
 * closing with its sealed text, every anchor with its DER token and its authority's root
 * certificate, a fresh integrity check, a manifest with the SHA-256 of each file, and the guide
 * (VERIFY.md, verify.py) to check it all with standard tools.
 *
 * Every read happens here, inside the operation's one snapshot (REPEATABLE READ), so the files
 * agree with each other whatever is appended meanwhile. The entries, the only part that grows
 * with the ledger, are written batch by batch to a spool file on disk (never all in memory),
 * hashing them as they go: the manifest, first in the archive, needs their SHA-256 before the
 * archive's first byte. What is returned is a stream of the ZIP, assembled from the small files
 * in memory and that spool as the HTTP response reads it, after the transaction has committed:
 * the snapshot need not stay open while a slow client downloads, and memory stays constant
 * whatever the number of entries.
 */
export async function forensicArchive(ctx: OperationContext, scope: IntegrityScope): Promise<FileOutput> {
  const now = ctx.clock.now();
  const heads = await chainsInScope(ctx.tx, scope);
  const total = heads.reduce((sum, h) => sum + h.length, 0);
  const integrity = await checkIntegrity(ctx.tx, scope, now, await trustedCaPems(ctx.tx, ctx.deps.config));
  const spool = await createSpool('forensic-entries');
  try {
    const entriesHash = createHash('sha256');
    const closings: ClosingRow[] = [];
    for (const head of heads) {
      const chain: FiscalChain = {
        tenantId: scope.tenantId,
        environment: scope.environment,
        subTenantId: head.subTenantId,
      };
      for await (const lines of entryLines(ctx.tx, chain)) {
        const chunk = Buffer.from(jsonl(lines), 'utf8');
        entriesHash.update(chunk);
        await spool.write(chunk);
      }
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

    const files: ArchiveFile[] = [];
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

    const tenant = await ctx
      .tx('tenants')
      .where({ id: scope.tenantId })
      .first<{ name: string; siret: string | null }>();
    const anchoredIndex = anchorLines.findIndex(
      (a) => a.status === 'anchored' && a.token_file && a.ca_certificate_file,
    );
    const main: ArchiveFile[] = [
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
      { path: 'entries.jsonl', size: spool.bytes, sha256: entriesHash.digest('hex'), open: () => spool.reader() },
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
        chain_hash:
          'SHA-256 (hex) of previous_hash || data_hash (two hex strings); previous_hash of entry 1 = 64 zeros',
        closing_hash: 'SHA-256 (hex) of canonical_data, the RFC 8785 canonical JSON of the closing',
        anchor: 'RFC 3161 time-stamp token whose message imprint (SHA-256) is closing_hash',
      },
      files: all.map((f) =>
        'content' in f
          ? { path: f.path, bytes: f.content.length, sha256: sha256(f.content) }
          : { path: f.path, bytes: f.size, sha256: f.sha256 },
      ),
    };
    const stamp = now
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
    const zip = streamZip(
      [{ path: 'manifest.json', content: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`) }, ...all],
      now,
    );
    // However the stream ends (read to the end, failed, or dropped by a client that went away),
    // the spool's file is closed and its space freed.
    zip.stream.once('close', () => void spool.discard());
    return {
      content: zip.stream,
      bytes: zip.bytes,
      contentType: 'application/zip',
      filename: `fiscal-forensic-export-${scope.environment}-${stamp}.zip`,
    };
  } catch (err) {
    await spool.discard();
    throw err;
  }
}
