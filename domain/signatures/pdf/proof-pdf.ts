import { renderTextDocumentPdf, type TextBlock } from '../../documents/index.js';

/** One step of a signature request, as the proof file lists it. */
export interface ProofEvent {
  at: Date;
  /** What happened: `created`, `viewed`, `otp_sent`, `signed`, `refused`, `completed`… or a sentence. */
  action: string;
  /** Who did it (a signer's name and e-mail), or the service itself. */
  actor: string;
  ip?: string | null;
  user_agent?: string | null;
  /** A refusal's reason, an OTP channel… */
  detail?: string | null;
}

export interface ProofFile {
  /** The signature request's id and title, and the document's name. */
  requestId: string;
  title: string;
  documentName: string;
  /** SHA-256 (hex) of the document as sent, and of the signed PDF (null when not signed). */
  sha256Before: string;
  sha256After: string | null;
  events: ProofEvent[];
  /** When the proof file is produced; now by default. */
  generatedAt?: Date;
}

const paris = new Intl.DateTimeFormat('fr-FR', {
  timeZone: 'Europe/Paris',
  dateStyle: 'short',
  timeStyle: 'medium',
});

/** `2026-11-26T10:00:00.000Z` → `26/11/2026 10:00:00 UTC`. */
const utc = (date: Date) => {
  const iso = date.toISOString();
  return `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)} ${iso.slice(11, 19)} UTC`;
};
const parisTime = (date: Date) => `${paris.format(date)} (Paris)`;

/**
 * The proof file (audit trail) of a signature request, as a PDF/A-3 text document: the document's
 * fingerprints before and after signing, then each event in order with its time in UTC and in
 * Europe/Paris, the signer, the IP address and the browser's user agent.
 */
export function renderProofPdf(proof: ProofFile): Buffer {
  const generatedAt = proof.generatedAt ?? new Date();
  const events = [...proof.events].sort((a, b) => a.at.getTime() - b.at.getTime());
  const blocks: TextBlock[] = [
    { kind: 'heading', text: 'Document' },
    {
      kind: 'facts',
      rows: [
        ['Demande de signature', proof.requestId],
        ['Objet', proof.title],
        ['Document', proof.documentName],
        ['SHA-256 avant signature', proof.sha256Before],
        ['SHA-256 après signature', proof.sha256After ?? 'document non signé'],
      ],
    },
    { kind: 'heading', text: 'Événements' },
    ...events.flatMap((event, i): TextBlock[] => [
      {
        kind: 'facts',
        rows: [
          [`${i + 1}. ${event.action}`, event.actor],
          ['Date (UTC)', utc(event.at)],
          ['Date (Europe/Paris)', parisTime(event.at)],
          ['Adresse IP', event.ip ?? '—'],
          ['Navigateur', event.user_agent ?? '—'],
          ...(event.detail ? [['Détail', event.detail] as const] : []),
        ],
      },
    ]),
    {
      kind: 'paragraph',
      muted: true,
      text: 'Signature électronique simple (eIDAS, article 25). Les empreintes SHA-256 permettent de vérifier que le document présenté est celui qui a été signé.',
    },
  ];
  return renderTextDocumentPdf({
    title: 'Fichier de preuve de signature électronique',
    subtitle: `Produit le ${utc(generatedAt)} (${parisTime(generatedAt)}).`,
    date: generatedAt.toISOString().slice(0, 10),
    footer: `Fichier de preuve : ${proof.title}`,
    blocks,
  });
}
