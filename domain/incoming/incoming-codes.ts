/**
 * The codes an incoming-invoice decision carries: French lifecycle statuses (provider-apis.md §4,
 * XP Z12-012), AFNOR reason codes (MDT-113) and UNTDID 4461 payment means.
 */

export const INCOMING_STATUSES = ['received', 'accepted', 'rejected', 'disputed', 'paid'] as const;
export type IncomingStatus = (typeof INCOMING_STATUSES)[number];

export type IncomingDecision = 'accept' | 'reject' | 'dispute' | 'mark_paid';

/**
 * The transition table (the specification leaves transitions open): a received invoice is
 * accepted, rejected or disputed; a disputed one is then accepted or rejected once settled, or paid;
 * an accepted one is paid. `rejected` and `paid` are final. Anything else is 409 INVALID_STATE.
 */
export const TRANSITIONS: Record<IncomingDecision, { from: readonly IncomingStatus[]; to: IncomingStatus }> = {
  accept: { from: ['received', 'disputed'], to: 'accepted' },
  reject: { from: ['received', 'disputed'], to: 'rejected' },
  dispute: { from: ['received'], to: 'disputed' },
  mark_paid: { from: ['accepted', 'disputed'], to: 'paid' },
};

/** The buyer's lifecycle status each decision sends (§1.6, §4): 205 Approuvée, 210 Refusée, 207 En litige, 211 Paiement transmis. */
export const STATUS_CODES: Record<IncomingDecision, string> = {
  accept: 'fr:205',
  reject: 'fr:210',
  dispute: 'fr:207',
  mark_paid: 'fr:211',
};

/** AFNOR business reason codes for 206/207/208/210 (provider-apis.md §4, MDT-113). */
export const REASON_CODES = [
  'NON_TRANSMISE',
  'JUSTIF_ABS',
  'ROUTAGE_ERR',
  'AUTRE',
  'COORD_BANC_ERR',
  'TX_TVA_ERR',
  'MONTANTTOTAL_ERR',
  'CALCUL_ERR',
  'NON_CONFORME',
  'DOUBLON',
  'DEST_INC',
  'DEST_ERR',
  'TRANSAC_INC',
  'EMMET_INC',
  'CONTRAT_TERM',
  'DOUBLE_FACT',
  'CMD_ERR',
  'ADR_ERR',
  'SIRET_ERR',
  'CODE_ROUTAGE_ERR',
  'REF_CT_ABSENT',
  'REF_ERR',
  'PU_ERR',
  'REM_ERR',
  'QTE_ERR',
  'ART_ERR',
  'MODPAI_ERR',
  'QUALITE_ERR',
  'LIVR_INCOMP',
] as const;

/** UNTDID 4461 payment means codes (the EN 16931 code list): 1–70, 74–78, 91–97 and ZZZ. */
export const PAYMENT_MEANS_CODES: readonly string[] = [
  ...Array.from({ length: 70 }, (_, i) => String(i + 1)),
  ...['74', '75', '76', '77', '78', '91', '92', '93', '94', '95', '96', '97', 'ZZZ'],
];
