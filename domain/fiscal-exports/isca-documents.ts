import { renderTextDocumentPdf } from '../documents/index.js';
import type { FiscalChain } from '../ledger/index.js';
import type { OperationContext } from '../shared/operation.js';
import { formatInstant } from './attestation-pdf.js';
import { chainUser } from './chain-user.js';
import { MODEL_REFERENCE } from './declaration-text.js';
import { measuresOf } from './measures-register.js';
import { notSet, publisherOf, softwareOf } from './publisher.js';
import { chainsInScope } from './report-scope.js';
import { technicalDossier } from './technical-dossier.js';

/** The ISCA technical dossier of a chain's user, as a PDF. */
export async function technicalDossierPdf(ctx: OperationContext, chain: FiscalChain): Promise<Buffer> {
  const { user } = await chainUser(ctx.tx, chain);
  const heads = await chainsInScope(ctx.tx, { ...chain, period: null });
  const mine = heads.filter((h) => h.subTenantId === chain.subTenantId);
  return renderTextDocumentPdf(
    technicalDossier({
      publisher: publisherOf(ctx.deps.config),
      software: softwareOf(ctx.deps.config),
      user,
      environment: chain.environment,
      chains: mine.length,
      entries: mine.reduce((sum, h) => sum + h.length, 0),
      generatedAt: ctx.clock.now().toISOString(),
      config: ctx.deps.config,
    }),
  );
}

/** The register of measures of a chain, as a PDF table, oldest first. */
export async function measuresRegisterPdf(ctx: OperationContext, chain: FiscalChain): Promise<Buffer> {
  const now = ctx.clock.now().toISOString();
  const { user, platform } = await chainUser(ctx.tx, chain);
  const publisher = publisherOf(ctx.deps.config);
  const software = softwareOf(ctx.deps.config);
  const measures = await measuresOf(ctx.tx, chain);
  return renderTextDocumentPdf({
    title: 'Registre des mesures : inaltérabilité, sécurisation, conservation et archivage',
    subtitle: `Mesures enregistrées par le logiciel ${software.name} ${software.version} pour ${user.name}, au ${formatInstant(now)}. Document de l'éditeur accompagnant l'attestation individuelle (${MODEL_REFERENCE}).`,
    date: now.slice(0, 10),
    footer: `Registre des mesures : ${user.name}`,
    blocks: [
      {
        kind: 'facts',
        rows: [
          ['Éditeur', publisher.name ?? notSet('PUBLISHER_NAME')],
          ['Logiciel', `${software.name} ${software.version}`],
          ['Utilisateur', `${user.name}${user.siret ? `, SIRET ${user.siret}` : ''}`],
          ...(platform ? [['Plateforme', platform.name] as const] : []),
          ['Environnement', chain.environment === 'production' ? 'production' : 'test (sandbox)'],
          ['Mesures', String(measures.length)],
        ],
      },
      {
        kind: 'paragraph',
        muted: true,
        text: "Les clôtures journalières, les horodatages et les contrôles d'intégrité sont regroupés par mois ; les clôtures mensuelles et annuelles, les activations du coupe-circuit fiscal et les versions des règles fiscales figurent une à une. Les dates sont en temps universel (UTC).",
      },
      {
        kind: 'table',
        columns: [
          { title: 'Date', share: 0.15 },
          { title: 'Domaine', share: 0.17 },
          { title: 'Mesure', share: 0.36 },
          { title: 'Détail', share: 0.32 },
        ],
        rows: measures.length
          ? measures.map((m) => [formatInstant(m.at).slice(0, 10), m.domain, m.measure, m.detail])
          : [['—', '—', 'Aucune mesure enregistrée pour cette chaîne', '—']],
      },
    ],
  });
}
