import type { DocumentNote } from './invoice-document.js';

/** French legal payment mentions for business buyers (Code de commerce L441-9, L441-10, D441-5). */
export const B2B_PAYMENT_NOTES: readonly DocumentNote[] = [
  {
    subjectCode: 'PMT',
    text: "En cas de retard de paiement, des pénalités de retard sont exigibles au taux égal à trois fois le taux d'intérêt légal (article L441-10 du Code de commerce).",
  },
  {
    subjectCode: 'PMD',
    text: 'Tout retard de paiement entraîne de plein droit une indemnité forfaitaire pour frais de recouvrement de 40 euros (article D441-5 du Code de commerce).',
  },
  { subjectCode: 'AAB', text: "Pas d'escompte pour paiement anticipé." },
];
