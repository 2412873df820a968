import { formatAmount, formatDate, renderTextDocumentPdf, type TextBlock } from '../documents/index.js';
import type { Attestation, ClosingWithAnchor } from './attestation.js';
import { MODEL_REFERENCE } from './declaration-text.js';
import { notSet } from './publisher.js';

const TYPE_LABELS: Record<string, string> = {
  invoice_created: 'Factures',
  credit_note_issued: 'Avoirs',
  payment: 'Règlements',
  closing: 'Clôtures',
};

/** `2026-05-04T10:00:00.000Z` → `04/05/2026 10:00:00 UTC`. */
export const formatInstant = (iso: string) => `${formatDate(iso.slice(0, 10))} ${iso.slice(11, 19)} UTC`;

/** The attestation as a PDF: the declaration, who makes it and for whom, then the chain's facts. */
export function renderAttestationPdf({ view, wording }: Attestation): Buffer {
  const { publisher, software, user, platform, chain, closings, integrity } = view;
  const period =
    view.year === null ? 'depuis le premier enregistrement' : `exercice ${view.year} (du 01/01 au 31/12, UTC)`;
  const blocks: TextBlock[] = [
    { kind: 'heading', text: 'Déclaration' },
    ...wording.statement.map((text) => ({ kind: 'paragraph' as const, text })),
    { kind: 'heading', text: 'Éditeur et logiciel' },
    {
      kind: 'facts',
      rows: [
        ['Éditeur', publisher.name ?? notSet('PUBLISHER_NAME')],
        ['SIREN', publisher.siren ?? notSet('PUBLISHER_SIREN')],
        ['Adresse', publisher.address ?? notSet('PUBLISHER_ADDRESS')],
        ['Signataire', publisher.signatory ?? notSet('PUBLISHER_SIGNATORY')],
        ['Contact', publisher.contact ?? notSet('PUBLISHER_CONTACT')],
        ['Logiciel', software.name],
        ['Version', software.version],
      ],
    },
    { kind: 'heading', text: 'Utilisateur' },
    {
      kind: 'facts',
      rows: [
        ['Nom', user.name],
        ...(user.legal_name ? [['Raison sociale', user.legal_name] as const] : []),
        ['SIRET', user.siret ?? 'non renseigné'],
        ['SIREN', user.siren ?? 'non renseigné'],
        ...(platform ? [['Plateforme', platform.name] as const] : []),
        ['Environnement', view.environment === 'production' ? 'production' : 'test (sandbox)'],
      ],
    },
    { kind: 'heading', text: `Chaîne fiscale : ${period}` },
    {
      kind: 'facts',
      rows: [
        ['Enregistrements', String(chain.entries_count)],
        ...Object.entries(chain.entries_by_type).map(
          ([type, n]) => [`dont ${TYPE_LABELS[type] ?? type}`, String(n)] as const,
        ),
        [
          'Premier numéro de séquence',
          chain.first_sequence_number === null ? '—' : String(chain.first_sequence_number),
        ],
        ['Dernier numéro de séquence', chain.last_sequence_number === null ? '—' : String(chain.last_sequence_number)],
        ['Dernière empreinte de chaînage', chain.last_chain_hash ?? '—'],
        ['Longueur totale de la chaîne', String(chain.chain_length)],
      ],
    },
    { kind: 'heading', text: 'Clôtures et horodatage' },
    {
      kind: 'facts',
      rows: [
        ['Clôtures journalières', String(closings.daily)],
        ['Clôtures mensuelles', String(closings.monthly)],
        ['Clôtures annuelles', String(closings.yearly)],
        ...(view.year === null
          ? []
          : closingRows('Clôture annuelle', closings.yearly_closing, yearlyMissing(view.year, view.generated_at))),
        ...(closings.latest && closings.latest.id === closings.yearly_closing?.id
          ? []
          : closingRows('Dernière clôture', closings.latest, 'aucune')),
        ...totalsRows(closings.yearly_closing ?? closings.latest),
      ],
    },
    { kind: 'heading', text: "Contrôle d'intégrité" },
    {
      kind: 'facts',
      rows: [
        ['Date du contrôle', formatInstant(integrity.checked_at)],
        [
          'Résultat',
          integrity.valid
            ? 'chaîne intègre : aucune rupture'
            : `${integrity.broken_links} rupture(s), la première au numéro de séquence ${integrity.first_broken_sequence ?? '—'}`,
        ],
        ['Enregistrements vérifiés', String(integrity.entries_checked)],
      ],
    },
    { kind: 'heading', text: 'Nature du document' },
    ...wording.nature.map((text) => ({ kind: 'paragraph' as const, text })),
    { kind: 'paragraph', text: wording.signature },
  ];
  return renderTextDocumentPdf({
    title: wording.title,
    subtitle: `Déclaration technique établie par l'éditeur, conformément au modèle de l'administration (${MODEL_REFERENCE}). Document produit le ${formatInstant(view.generated_at)}.`,
    date: view.generated_at.slice(0, 10),
    footer: `${view.year === null ? 'Attestation individuelle' : `Attestation individuelle ${view.year}`} : ${user.name}`,
    blocks,
  });
}

const yearlyMissing = (year: number, generatedAt: string) =>
  Number(generatedAt.slice(0, 4)) <= year ? "pas encore réalisée : l'exercice n'est pas terminé" : 'non réalisée';

function closingRows(label: string, closing: ClosingWithAnchor | null, absent: string): (readonly [string, string])[] {
  if (!closing) return [[label, absent]];
  const anchor = closing.anchor;
  const stamp = !anchor
    ? 'aucun'
    : anchor.status === 'anchored'
      ? `horodatée le ${formatInstant(anchor.anchored_at ?? '')} par ${anchor.tsa_name ?? '—'} (n° ${anchor.anchor_reference ?? '—'})`
      : anchor.status === 'pending'
        ? "en attente de l'autorité d'horodatage"
        : 'en échec';
  return [
    [
      label,
      `${closing.type === 'daily' ? 'journalière' : closing.type === 'monthly' ? 'mensuelle' : 'annuelle'}, du ${formatDate(closing.period_start)} au ${formatDate(closing.period_end)}, ${closing.entries_count} enregistrement(s)`,
    ],
    [`${label} : empreinte`, closing.closing_hash],
    [`${label} : horodatage RFC 3161`, stamp],
  ];
}

function totalsRows(closing: ClosingWithAnchor | null): (readonly [string, string])[] {
  if (!closing) return [];
  const t = closing.fiscal_year_totals as unknown as Record<string, string>;
  const asOf = `au ${formatDate(closing.period_end)}`;
  return [
    [`Cumul de l'exercice ${asOf} : factures HT`, formatAmount(t.invoices_ht, 'EUR')],
    [`Cumul de l'exercice ${asOf} : avoirs HT`, formatAmount(t.credit_notes_ht, 'EUR')],
    [`Cumul de l'exercice ${asOf} : net HT`, formatAmount(t.net_ht, 'EUR')],
  ];
}
