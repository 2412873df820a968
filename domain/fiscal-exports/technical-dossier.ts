import type { TextBlock, TextDocument } from '../documents/index.js';
import { CLOSING_HASH_VERSION, HASH_VERSION } from '../ledger/index.js';
import type { Config } from '../shared/config.js';
import type { ChainUser } from './chain-user.js';
import { MODEL_REFERENCE } from './declaration-text.js';
import { notSet, type Publisher, type Software } from './publisher.js';

export interface DossierFacts {
  publisher: Publisher;
  software: Software;
  user: ChainUser['user'];
  environment: 'sandbox' | 'production';
  chains: number;
  entries: number;
  generatedAt: string;
  config: Pick<Config, 'tsaUrl'>;
}

const p = (text: string): TextBlock => ({ kind: 'paragraph', text });
const h = (text: string): TextBlock => ({ kind: 'heading', text });

/**
 * The ISCA technical dossier: how this software achieves inalterability, security, conservation
 * and archiving, described as the code does it (hash chain, RFC 8785, SHA-256, closings, RFC 3161,
 * database triggers, row-level security), with the deployment's own settings where they matter.
 */
export function technicalDossier(f: DossierFacts): TextDocument {
  const tsa = f.config.tsaUrl
    ? `l'autorité d'horodatage externe configurée (${new URL(f.config.tsaUrl).host}), dont les jetons doivent remonter au certificat X.509 racine fourni dans TSA_CA_CERT`
    : "l'autorité d'horodatage locale intégrée (« Built-in TSA - not a qualified authority »), faute d'autorité externe configurée (TSA_URL) : ses jetons sont de vrais jetons RFC 3161, mais ils ne datent une clôture que dans la mesure où l'on fait confiance aux clés de l'exploitant";
  const blocks: TextBlock[] = [
    h('1. Objet et identification'),
    p(
      `Ce dossier décrit les moyens par lesquels le logiciel ${f.software.name}, version ${f.software.version}, assure l'inaltérabilité, la sécurisation, la conservation et l'archivage des données enregistrées (3° bis du I de l'article 286 du code général des impôts). Il accompagne l'attestation individuelle établie par l'éditeur conformément au modèle de l'administration (${MODEL_REFERENCE}) ; c'est une documentation technique de l'éditeur, qui n'émane d'aucun organisme tiers accrédité.`,
    ),
    {
      kind: 'facts',
      rows: [
        ['Éditeur', f.publisher.name ?? notSet('PUBLISHER_NAME')],
        ['SIREN', f.publisher.siren ?? notSet('PUBLISHER_SIREN')],
        ['Logiciel', `${f.software.name} ${f.software.version}`],
        ['Utilisateur', `${f.user.name}${f.user.siret ? `, SIRET ${f.user.siret}` : ''}`],
        ['Environnement', f.environment === 'production' ? 'production' : 'test (sandbox)'],
        ['Chaînes fiscales', `${f.chains} chaîne(s), ${f.entries} enregistrement(s) à la date du document`],
      ],
    },
    h('2. Données enregistrées'),
    p(
      "Chaque fait fiscal est un enregistrement d'une chaîne propre à l'utilisateur (la plateforme, ou chacun de ses sous-comptes) et à l'environnement : création de facture (invoice_created), émission d'avoir (credit_note_issued), règlement (payment) et clôture (closing). Les numéros de séquence partent de 1 et se suivent sans interruption. En production, les enregistrements ont le statut « definitive » ; en test (sandbox), le statut « test », sans valeur fiscale.",
    ),
    h('3. Inaltérabilité'),
    p(
      `Les données de chaque enregistrement, selon une liste de champs versionnée (version ${HASH_VERSION}), sont mises sous la forme JSON canonique de la RFC 8785 ; ce texte exact est conservé (canonical_data). Son empreinte data_hash est le SHA-256 de ce texte ; l'empreinte de chaînage chain_hash est le SHA-256 de la concaténation de l'empreinte de chaînage précédente (previous_hash) et de data_hash ; le premier enregistrement d'une chaîne part de 64 zéros. Modifier, supprimer, insérer ou intervertir un enregistrement rompt la chaîne à cet endroit.`,
    ),
    p(
      "La base de données refuse elle-même toute altération, quel que soit le compte qui écrit : des contraintes recalculent data_hash et chain_hash à chaque insertion ; un déclencheur impose le numéro de séquence suivant et le lien avec la dernière empreinte de la chaîne ; un index unique empêche deux enregistrements de même numéro ; des déclencheurs refusent toute modification (UPDATE), suppression (DELETE) et troncature (TRUNCATE), y compris pour le propriétaire des tables. L'enregistrement est ajouté au moment de la validation de la transaction métier, sous un verrou propre à la chaîne : une opération annulée n'écrit rien, et deux écritures simultanées ne peuvent ni créer de trou ni bifurquer.",
    ),
    p(
      "Les champs fiscaux d'une facture sont figés dès sa création par un déclencheur de la base ; une correction passe par un avoir, lui-même enregistré dans la chaîne. Les historiques d'audit des factures et du coupe-circuit fiscal sont eux aussi chaînés par SHA-256 et ne peuvent qu'être complétés.",
    ),
    h('4. Sécurisation'),
    p(
      `Clôtures : chaque chaîne est close chaque jour (pour la veille, à 00 h 00 UTC), chaque mois et chaque année, y compris pour une période sans enregistrement. Une clôture indique la plage de numéros couverte, l'empreinte de chaînage scellée, les totaux de la période, le cumul de l'exercice et le cumul perpétuel (jamais remis à zéro) ; son empreinte closing_hash est le SHA-256 du JSON canonique (RFC 8785, version ${CLOSING_HASH_VERSION}) de l'ensemble, et elle est chaînée à la clôture précédente du même type. Chaque clôture est aussi inscrite dans la chaîne comme enregistrement. Une tâche horaire rattrape toute période non close ; une clôture ne peut exister qu'une fois par chaîne, type et période.`,
    ),
    p(
      `Horodatage : l'empreinte de chaque clôture est horodatée selon la RFC 3161 par ${tsa}. Chaque jeton est vérifié avant d'être conservé (empreinte, nonce, signature RSA, certificat X.509 du signataire à usage d'horodatage exclusif, rattaché à l'autorité de confiance) ; il est conservé au format DER avec les certificats X.509 de l'autorité, et vérifiable par quiconque avec openssl ts -verify. Une autorité indisponible laisse l'horodatage en attente, repris automatiquement, sans bloquer la clôture.`,
    ),
    p(
      "Contrôle d'intégrité : à la demande, le logiciel recalcule chaque empreinte à partir des données conservées, vérifie la continuité des numéros, le scellement, les totaux et le chaînage des clôtures, et vérifie à nouveau chaque jeton d'horodatage. Une réécriture complète de la chaîne avec des empreintes recalculées est détectée par la clôture qui la couvrait, ou par son horodatage. Chaque contrôle est lui-même conservé, sans modification possible.",
    ),
    p(
      "Coupe-circuit fiscal : l'utilisateur peut suspendre à tout moment la création de factures et d'avoirs ; chaque activation et désactivation est tracée avec son motif. Accès : les clés d'API ne sont conservées que sous forme d'empreinte SHA-256 ; l'accès aux données fiscales exige les portées fiscal:read, fiscal:write ou fiscal:admin ; les données de chaque utilisateur sont isolées par des requêtes filtrées et par la sécurité au niveau des lignes de PostgreSQL (row-level security), appliquée à un rôle applicatif qui ne possède aucune table ; les secrets sont chiffrés (AES-256-GCM).",
    ),
    h('5. Conservation'),
    p(
      "Le logiciel n'efface aucune donnée fiscale : les enregistrements, les clôtures, les horodatages et les contrôles ne peuvent qu'être ajoutés, et un sous-compte qui a des enregistrements ne peut pas être supprimé. Les données sont conservées dans PostgreSQL sans limite de durée fixée par le logiciel, ce qui couvre les délais légaux (six ans au titre de l'article L. 102 B du livre des procédures fiscales, dix ans au titre de l'article L. 123-22 du code de commerce). La sauvegarde de la base (sauvegardes régulières, archivage des journaux de transactions, copies hors site) relève de l'exploitant du service ; toute restauration reste vérifiable par le contrôle d'intégrité et par les horodatages.",
    ),
    h("6. Archivage et accès de l'administration"),
    p(
      "À tout moment, l'utilisateur peut produire : le fichier des écritures comptables (FEC, article A. 47 A-1 du livre des procédures fiscales) d'un exercice ou d'un mois ; un export forensique, archive ZIP contenant tous les enregistrements avec le texte exact haché, les clôtures avec leur texte scellé, les jetons d'horodatage et les certificats X.509 des autorités, un contrôle d'intégrité, un manifeste des empreintes SHA-256 de chaque fichier et un guide de vérification utilisable avec des outils standard (sha256sum, jq, python3, openssl) ; la liste des enregistrements, des clôtures, des horodatages et des contrôles ; le registre des mesures.",
    ),
    h('7. Limites'),
    p(
      "Le propriétaire du schéma de la base de données (le compte qui applique les migrations) ou un superutilisateur peut désactiver les déclencheurs ; le rôle applicatif ne le peut pas. Une altération faite ainsi n'est pas empêchée mais détectée, par le contrôle d'intégrité et par les clôtures horodatées. Le vérificateur intégré des jetons d'horodatage ne lit que les signatures RSA.",
    ),
  ];
  return {
    title: 'Dossier technique : inaltérabilité, sécurisation, conservation et archivage des données',
    subtitle: `Documentation technique de l'éditeur pour ${f.software.name} ${f.software.version}, produite le ${f.generatedAt.slice(0, 10).split('-').reverse().join('/')}.`,
    date: f.generatedAt.slice(0, 10),
    footer: `Dossier technique ISCA : ${f.software.name} ${f.software.version}`,
    blocks,
  };
}
