import { formatDate } from '../documents/index.js';
import type { ChainUser } from './chain-user.js';
import { notSet, type Publisher, type Software } from './publisher.js';

/** The administration's model the attestation follows (BOFiP, TVA, obligations déclaratives, logiciels de caisse). */
export const MODEL_REFERENCE = 'BOI-TVA-DECLA-30-10-30';

export interface DeclarationFacts {
  publisher: Publisher;
  software: Software;
  user: ChainUser['user'];
  platform: ChainUser['platform'];
  year: number | null;
  environment: 'sandbox' | 'production';
  /** YYYY-MM-DD. */
  date: string;
}

/**
 * The wording of the attestation individuelle (DECISIONS.md "Fiscal ledger"): the publisher's
 * technical self-declaration, following the administration's model, and never worded as a
 * certificate. Since the 2025 finance law, cash-register software needs an accredited body's
 * certificate; this text says plainly that it is no such thing and does not stand in for one.
 */
export function declaration(f: DeclarationFacts) {
  const publisher = f.publisher.name ?? `l'éditeur, ${notSet('PUBLISHER_NAME')}`;
  const signatory = f.publisher.signatory ?? notSet('PUBLISHER_SIGNATORY');
  const title =
    f.year === null
      ? "Attestation individuelle de l'éditeur : inaltérabilité, sécurisation, conservation et archivage des données"
      : `Attestation individuelle de l'éditeur : exercice ${f.year}`;
  const user = `${f.user.name}${f.user.siret ? `, SIRET ${f.user.siret}` : ''}${
    f.platform ? `, utilisateur par l'intermédiaire de la plateforme ${f.platform.name}` : ''
  }`;
  const statement = [
    `La présente attestation individuelle est établie par l'éditeur du logiciel, conformément au modèle de l'administration (${MODEL_REFERENCE}), au bénéfice de l'utilisateur désigné ci-après${
      f.year === null ? '' : `, pour l'exercice ${f.year}`
    }.`,
    `Je soussigné(e), ${signatory}, agissant pour le compte de ${publisher}${
      f.publisher.siren ? ` (SIREN ${f.publisher.siren})` : ''
    }, éditeur du logiciel ${f.software.name} dans sa version ${f.software.version}, atteste que ce logiciel, dans cette version, met en œuvre les conditions d'inaltérabilité, de sécurisation, de conservation et d'archivage des données en vue du contrôle de l'administration fiscale prévues au 3° bis du I de l'article 286 du code général des impôts, par les moyens décrits dans son dossier technique.`,
    `Utilisateur : ${user}. Ses enregistrements forment une chaîne qui lui est propre ; les constats chiffrés ci-dessous sont produits automatiquement par le logiciel à la date du document.`,
  ];
  const nature = [
    "Cette attestation est une déclaration technique de l'éditeur, établie sous sa seule responsabilité. Elle n'émane d'aucun organisme tiers accrédité et ne se substitue pas à l'intervention d'un tel organisme lorsque la loi l'exige, notamment pour les logiciels et systèmes de caisse.",
    ...(f.environment === 'sandbox'
      ? [
          "Environnement de test (sandbox) : les enregistrements de cette chaîne portent le statut « test » et n'ont aucune valeur fiscale.",
        ]
      : []),
    "L'éditeur tient à la disposition de l'administration la documentation technique du logiciel (dossier technique, registre des mesures) et l'export de vérification des données (export forensique).",
  ];
  const signature = `Fait le ${formatDate(f.date)}, pour ${publisher}. ${signatory}.`;
  return { title, statement, nature, signature };
}

/** The wording as the JSON attestation carries it: every paragraph in reading order. */
export const declarationView = (d: Declaration) => ({
  language: 'fr' as const,
  reference: MODEL_REFERENCE,
  title: d.title,
  paragraphs: [...d.statement, ...d.nature, d.signature],
});
export type Declaration = ReturnType<typeof declaration>;
