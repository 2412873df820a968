import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { type PdfRect, type ProofEvent, readPdfInfo, renderProofPdf, signPdf, toPdfRect } from './pdf/index.js';
import type { SignatureRequestRow } from './signature-row.js';
import { findSignatureDocument } from './signature-store.js';
import { fullNameOf } from './signature-view.js';
import { type SigningSigner, signingEventsOf, storeSignatureDocument } from './signing-store.js';

const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');
/** The default block and its margins, in points, when a signer has no position. */
const BLOCK = { width: 170, height: 64, margin: 24, gap: 10 };

/**
 * Where each signer's block goes: signer k (in their order) takes the k-th stored position; the
 * signers without one get the default placement, at the bottom of the last page, side by side, as
 * many to a row as fit the page's width, further rows stacked above.
 */
export function placementsOf(
  positions: SignatureRequestRow['positions'],
  signerCount: number,
  pages: { width: number; height: number }[],
): PdfRect[][] {
  const last = pages[pages.length - 1];
  const room = last.width - 2 * BLOCK.margin;
  const perRow = Math.max(1, Math.floor((room + BLOCK.gap) / (BLOCK.width + BLOCK.gap)));
  const width = Math.min(BLOCK.width, (room - (perRow - 1) * BLOCK.gap) / perRow);
  return Array.from({ length: signerCount }, (_, k) => {
    const p = positions[k];
    if (p) {
      const page = pages[p.page - 1] ?? last;
      return [
        toPdfRect(
          {
            page: p.page,
            x: p.x,
            y: p.y,
            unit: p.unit,
            width: p.width ?? undefined,
            height: p.height ?? undefined,
            page_width_px: p.page_width_px,
            page_height_px: p.page_height_px,
          },
          page,
        ),
      ];
    }
    const slot = k - positions.length;
    const row = Math.floor(slot / perRow);
    return [
      {
        page: pages.length,
        x: BLOCK.margin + (slot % perRow) * (width + BLOCK.gap),
        y: Math.min(BLOCK.margin + row * (BLOCK.height + BLOCK.gap), last.height - BLOCK.height),
        width,
        height: BLOCK.height,
      },
    ];
  });
}

/**
 * The files of a completed request: the signed PDF (every signer's block, then a PAdES signature by
 * the simulator's certificate over the whole file) and the proof file (every event of the request,
 * with the document's SHA-256 before and after), both stored with the request. Takes a few
 * milliseconds for a document of a few pages.
 */
export async function produceSignedFiles(
  tx: Knex,
  r: SignatureRequestRow,
  signers: SigningSigner[],
  now: Date,
): Promise<void> {
  const original = await findSignatureDocument(tx, r.id, 'original');
  if (!original) throw new Error(`signature request ${r.id} has no original document`);
  const info = readPdfInfo(original.content);
  const rects = placementsOf(r.positions, signers.length, info.pages);
  const signed = signPdf(original.content, {
    signers: signers.map((s, k) => ({
      name: s.signature_typed ?? fullNameOf(s),
      signedAt: s.signed_at ?? now,
      drawing: s.signature_image,
      rects: rects[k],
    })),
    signingTime: now,
    signerName: signers.map(fullNameOf).join(', '),
    reason: r.title,
  });
  const signedSha = sha256(signed);
  await storeSignatureDocument(
    tx,
    r,
    { kind: 'signed', filename: original.filename, content: signed, sha256: signedSha },
    now,
  );

  const byId = new Map(signers.map((s) => [s.id, s]));
  const events: ProofEvent[] = [
    { at: r.created_at, action: 'created', actor: 'The service, at the request of its owner' },
    ...(await signingEventsOf(tx, r.id)).map((e) => {
      const s = e.signer_id ? byId.get(e.signer_id) : undefined;
      return {
        at: e.at,
        action: e.action,
        actor: s ? `${fullNameOf(s)}${s.email ? ` <${s.email}>` : s.phone ? ` (${s.phone})` : ''}` : 'The service',
        ip: e.ip,
        user_agent: e.user_agent,
        detail: e.detail,
      };
    }),
    { at: now, action: 'completed', actor: 'The service' },
  ];
  const proof = renderProofPdf({
    requestId: r.id,
    title: r.title,
    documentName: r.document_name,
    sha256Before: r.document_sha256,
    sha256After: signedSha,
    events,
    generatedAt: now,
  });
  const proofName = `${original.filename.replace(/\.pdf$/i, '')}-proof.pdf`;
  await storeSignatureDocument(
    tx,
    r,
    { kind: 'proof', filename: proofName, content: proof, sha256: sha256(proof) },
    now,
  );
}
