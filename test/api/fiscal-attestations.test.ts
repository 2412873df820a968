import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { closeFiscalChain } from '../../domain/ledger/operations/close-fiscal-chain.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { expectInvalid, expectRefusal } from '../helpers/assertions.js';
import { getFiscal, invoiceAt, runAnchorJobs, smallInvoice } from '../helpers/fiscal-closings.js';
import { postJson, readJson } from '../helpers/http.js';
import { type SeededTenant, seedPlatformTenant } from '../helpers/identities.js';
import { pdfText, run } from '../helpers/pdf-tools.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { TestClock, withClock } from '../helpers/test-clock.js';

const PUBLISHER = {
  PUBLISHER_NAME: 'Éditions Logicielles SAS',
  PUBLISHER_SIREN: '732829320',
  PUBLISHER_ADDRESS: '1 rue de la Paix, 75002 Paris',
  PUBLISHER_SIGNATORY: 'Jeanne Martin, présidente',
  PUBLISHER_CONTACT: 'conformite@example.com',
};
const VERSION = JSON.parse(readFileSync('package.json', 'utf8')).version as string;
const clock = new TestClock('2025-12-30T10:00:00Z');
let app: TestApp;
const work = mkdtempSync(join(tmpdir(), 'attestations-'));
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0', ...PUBLISHER }, override: withClock(clock) });
});
test.after.always(async () => {
  await app?.close();
  rmSync(work, { recursive: true, force: true });
});

/** The text of a downloaded PDF, after qpdf found its structure sound; whitespace runs made single spaces. */
async function pdf(res: Response, name: string): Promise<string> {
  const path = join(work, `${name}.pdf`);
  writeFileSync(path, Buffer.from(await res.arrayBuffer()));
  const checked = run('qpdf', ['--check', path]);
  if (checked.status !== 0) throw new Error(`qpdf --check ${name}: ${checked.stdout}${checked.stderr}`);
  return pdfText(path).replace(/\s+/g, ' ');
}
const compact = (text: string) => text.replace(/\s+/g, '');
const fetchFiscal = (key: string, path: string) =>
  app.request(`/api/v1/tenant/fiscal/${path}`, { headers: { 'X-Tenant-Key': key } });
/** What no attestation may say: that it is, or comes with, a certification. */
const CERTIFICATION = /certifi/i;

/**
 * A tenant whose chain began on 30 December 2025: two invoices that year, closed day, month and
 * year by the worker's command on 1 January, the anchors stamped; then one invoice in 2026.
 */
async function yearClosed(): Promise<SeededTenant> {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const key = tenant.keys.sk_test;
  await invoiceAt(app, clock, key, '2025-12-30T10:00:00Z', smallInvoice(100));
  await invoiceAt(app, clock, key, '2025-12-31T15:00:00Z', smallInvoice(50));
  clock.set('2026-01-01T00:05:00Z');
  await execute(
    closeFiscalChain,
    { tenant_id: tenant.tenantId, environment: 'sandbox', sub_tenant_id: null, date: '2025-12-31' },
    systemCaller(tenant.tenantId, 'sandbox'),
    app.deps,
  );
  await runAnchorJobs(app.ownerDb, app.deps, tenant.tenantId);
  await invoiceAt(app, clock, key, '2026-01-05T09:00:00Z', smallInvoice(10));
  clock.set('2026-01-06T08:00:00Z');
  return tenant;
}

test.serial(
  'the yearly attestation states the year’s chain, its sealed yearly closing and anchor, as a self-declaration',
  async (t) => {
    const tenant = await yearClosed();
    const key = tenant.keys.sk_test;
    const { status, body } = await getFiscal(app, key, 'attestation/2025');
    t.is(status, 200, JSON.stringify(body));
    const a = body.data;
    app.deps.schemas.parse('FiscalAttestation', a);
    const head = await app
      .ownerDb('fiscal_entries')
      .where({ tenant_id: tenant.tenantId, sequence_number: 2 })
      .first('chain_hash');
    const yearly = await app.ownerDb('fiscal_closings').where({ tenant_id: tenant.tenantId, type: 'yearly' }).first();
    t.like(a, {
      kind: 'attestation_individuelle',
      year: 2025,
      environment: 'sandbox',
      publisher: { name: 'Éditions Logicielles SAS', siren: '732829320', configured: true },
      software: { name: 'einvoice-service', version: VERSION },
      user: { type: 'tenant', id: tenant.tenantId, name: 'Platform SAS', siret: '73282932000074', siren: '732829320' },
      platform: null,
      chain: {
        period_from: '2025-01-01',
        period_to: '2025-12-31',
        entries_count: 2, // the closings of 2025 were appended on 1 January 2026
        entries_by_type: { invoice_created: 2, closing: 0 },
        first_sequence_number: 1,
        last_sequence_number: 2,
        last_chain_hash: head.chain_hash,
        chain_length: 7, // 2 invoices, 4 closing entries, 1 invoice of 2026
      },
      closings: {
        daily: 2,
        monthly: 1,
        yearly: 1,
        yearly_closing: {
          id: yearly.id,
          closing_hash: yearly.closing_hash,
          entries_count: 2,
          anchor: {
            status: 'anchored',
            verified: true,
            tsa_name: 'O=Local Test, CN=Built-in TSA - not a qualified authority',
          },
        },
      },
      integrity: { valid: true, ran_now: true, broken_links: 0, first_broken_sequence: null },
      declaration: { language: 'fr', reference: 'BOI-TVA-DECLA-30-10-30' },
    });
    t.is(yearly.last_chain_hash, head.chain_hash, 'the yearly closing seals the year’s last entry');
    const wording = a.declaration.paragraphs.join(' ');
    t.regex(
      wording,
      /attestation individuelle est établie par l'éditeur.*conformément au modèle de l'administration \(BOI-TVA-DECLA-30-10-30\)/,
    );
    t.regex(
      wording,
      /Je soussigné\(e\), Jeanne Martin, présidente, agissant pour le compte de Éditions Logicielles SAS \(SIREN 732829320\)/,
    );
    t.regex(wording, new RegExp(`version ${VERSION.replaceAll('.', '\\.')}`));
    t.regex(wording, /déclaration technique de l'éditeur/);
    t.regex(wording, /statut « test »/, 'a sandbox chain says its entries have no fiscal value');
    t.notRegex(`${a.declaration.title} ${wording}`, CERTIFICATION);

    const res = await fetchFiscal(key, 'attestation/2025/download');
    t.is(res.status, 200);
    t.is(res.headers.get('content-type'), 'application/pdf');
    t.regex(res.headers.get('content-disposition') ?? '', /filename="attestation-individuelle-2025-732829320\.pdf"/);
    const text = await pdf(res, 'attestation-2025');
    for (const expected of [
      "Attestation individuelle de l'éditeur : exercice 2025",
      "conformément au modèle de l'administration (BOI-TVA-DECLA-30-10-30)",
      'Éditions Logicielles SAS',
      'Jeanne Martin, présidente',
      `Version ${VERSION}`,
      'Platform SAS',
      '73282932000074',
      'Enregistrements 2',
      'Premier numéro de séquence 1',
      'Dernier numéro de séquence 2',
      'Clôtures annuelles 1',
      'annuelle, du 01/01/2025 au 31/12/2025, 2 enregistrement(s)',
      'Built-in TSA - not a qualified authority',
      'net HT 150,00 €',
      'chaîne intègre : aucune rupture',
      'Fait le 06/01/2026',
    ]) {
      t.true(text.includes(expected), `${expected} in: ${text}`);
    }
    t.true(compact(text).includes(head.chain_hash), 'the last chain hash is printed');
    t.true(compact(text).includes(yearly.closing_hash), 'the yearly closing hash is printed');
    t.notRegex(text, CERTIFICATION);
  },
);

test.serial('the current year is attested so far; a future or malformed year is 422', async (t) => {
  const tenant = await yearClosed();
  const key = tenant.keys.sk_test;
  const current = await getFiscal(app, key, 'attestation/2026');
  t.like(current.body.data, {
    year: 2026,
    chain: { entries_count: 5, first_sequence_number: 3, last_sequence_number: 7 },
    closings: { daily: 0, yearly: 0, yearly_closing: null },
    integrity: { valid: true },
  });
  const text = await pdf(await fetchFiscal(key, 'attestation/2026/download'), 'attestation-2026');
  t.true(text.includes("Clôture annuelle pas encore réalisée : l'exercice n'est pas terminé"), text);
  await expectInvalid(
    t,
    await fetchFiscal(key, 'attestation/2027'),
    'year',
    'must not be after the current year (2026)',
  );
  await expectInvalid(t, await fetchFiscal(key, 'attestation/2027/download'), 'year');
  await expectInvalid(t, await fetchFiscal(key, 'attestation/1999'), 'year');
  await expectInvalid(t, await fetchFiscal(key, 'attestation/twenty'), 'year');
  await expectInvalid(t, await fetchFiscal(key, 'attestation/2025?environment=production'), 'environment');
});

test.serial('a sub-tenant’s attestation names the sub-tenant as the user, through its platform', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const key = tenant.keys.sk_test;
  const headers = { 'X-Tenant-Key': key };
  const sub = (
    await readJson(
      await app.request(
        '/api/v1/tenant/sub-tenants',
        postJson({ external_id: 'bio', name: 'Épicerie Bio', siret: '44306184100047' }, headers),
      ),
    )
  ).data;
  await invoiceAt(
    app,
    clock,
    key,
    '2026-01-06T10:00:00Z',
    smallInvoice(12),
    `/api/v1/tenant/sub-tenants/${sub.id}/invoices`,
  );
  const a = (await getFiscal(app, key, `attestation/2026?sub_tenant_id=${sub.id}`)).body.data;
  t.like(a, {
    user: { type: 'sub_tenant', id: sub.id, name: 'Épicerie Bio', siret: '44306184100047', siren: '443061841' },
    platform: { id: tenant.tenantId, name: 'Platform SAS' },
    chain: { sub_tenant_id: sub.id, entries_count: 1 },
  });
  const text = await pdf(await fetchFiscal(key, `attestation/2026/download?sub_tenant_id=${sub.id}`), 'sub');
  t.true(text.includes("utilisateur par l'intermédiaire de la plateforme Platform SAS"), text);
  const other = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  await expectRefusal(
    t,
    await fetchFiscal(other.keys.sk_test, `attestation/2026?sub_tenant_id=${sub.id}`),
    404,
    'NOT_FOUND',
  );
});

test.serial(
  'the ISCA self-attestation and technical dossier describe the whole chain and what the code does',
  async (t) => {
    const tenant = await yearClosed();
    const key = tenant.keys.sk_test;
    const self = await fetchFiscal(key, 'isca/self-attestation/download');
    t.is(self.status, 200);
    t.regex(self.headers.get('content-disposition') ?? '', /filename="isca-auto-attestation-732829320\.pdf"/);
    const selfText = await pdf(self, 'self');
    for (const expected of [
      "Attestation individuelle de l'éditeur : inaltérabilité, sécurisation, conservation et archivage des données",
      'BOI-TVA-DECLA-30-10-30',
      'depuis le premier enregistrement',
      'Enregistrements 7',
      'Dernier numéro de séquence 7',
      'Longueur totale de la chaîne 7',
      'Clôtures journalières 2',
    ]) {
      t.true(selfText.includes(expected), `${expected} in: ${selfText}`);
    }
    t.notRegex(selfText, CERTIFICATION);

    const dossier = await fetchFiscal(key, 'isca/technical-dossier/download');
    t.is(dossier.status, 200);
    const dossierText = await pdf(dossier, 'dossier');
    for (const expected of [
      'Dossier technique : inaltérabilité, sécurisation, conservation et archivage des données',
      `${'einvoice-service'} ${VERSION}`,
      'RFC 8785',
      'SHA-256',
      'RFC 3161',
      'Built-in TSA - not a qualified authority',
      'UPDATE',
      'row-level security',
      'openssl ts -verify',
      'L. 102 B',
      'FEC',
      '1 chaîne(s), 7 enregistrement(s)',
    ]) {
      t.true(dossierText.includes(expected), `${expected} in: ${dossierText}`);
    }
    // "certificat" appears only as the X.509 certificates of the time-stamp authority, never as a claim.
    t.notRegex(dossierText.replace(/certificats? X\.509/g, ''), CERTIFICATION);
  },
);

test.serial(
  'the register of measures dates the kill switch, rule versions, closings, time-stamps and checks',
  async (t) => {
    const tenant = await yearClosed();
    const key = tenant.keys.sk_test;
    const headers = { 'X-Tenant-Key': key };
    clock.set('2026-01-06T09:00:00Z');
    await app.request(
      '/api/v1/tenant/fiscal/kill-switch/activate',
      postJson({ reason: 'Migration de la base' }, headers),
    );
    clock.set('2026-01-06T09:30:00Z');
    await app.request(
      '/api/v1/tenant/fiscal/kill-switch/deactivate',
      postJson({ reason: 'Migration terminée' }, headers),
    );
    const rule = await app.request(
      '/api/v1/tenant/fiscal/rules',
      postJson(
        { key: 'audit.contact', value: 'v1', description: 'Contact audit v1', effective_from: '2026-01-01' },
        headers,
      ),
    );
    t.is(rule.status, 201, JSON.stringify(await readJson(rule)));
    // Enough versions for the table to run onto a second page.
    for (let v = 2; v <= 45; v++) {
      const res = await app.request('/api/v1/tenant/fiscal/rules/audit.contact', {
        method: 'PUT',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ value: `v${v}`, effective_from: '2026-01-01', description: `Contact audit v${v}` }),
      });
      t.is(res.status, 200);
    }
    await getFiscal(app, key, 'integrity');

    const res = await fetchFiscal(key, 'isca/measures-register/download');
    t.is(res.status, 200);
    t.regex(res.headers.get('content-disposition') ?? '', /filename="isca-registre-des-mesures\.pdf"/);
    const path = join(work, 'register.pdf');
    const text = await pdf(res, 'register');
    for (const expected of [
      'Registre des mesures',
      'Ouverture de la chaîne (enregistrement n° 1)',
      '2 clôture(s) journalière(s) de décembre 2025',
      'Clôture mensuelle de décembre 2025',
      'Clôture annuelle de l’exercice 2025',
      'Horodatage des clôtures de janvier 2026',
      '4 horodatée(s), 0 en attente, 0 en échec',
      'Activation : création de factures et d’avoirs suspendue',
      'Motif : Migration de la base',
      'Désactivation : création rétablie',
      'audit.contact, version 2, en vigueur au 01/01/2026',
      'audit.contact, version 45',
      "contrôle(s) d'intégrité en janvier 2026",
      'Tous concluants : aucune rupture',
    ]) {
      t.true(text.includes(expected), `${expected} in: ${text}`);
    }
    const pages = Number(/Pages:\s+(\d+)/.exec(run('pdfinfo', [path]).stdout)?.[1]);
    t.true(pages >= 2, `${pages} pages`);
    const secondPage = pdfText(path).split('\f')[1];
    t.regex(secondPage, /Date\s+Domaine\s+Mesure\s+Détail/, 'the table header is repeated on the next page');
    t.notRegex(text, CERTIFICATION);
  },
);

test('without the PUBLISHER_* settings the documents say plainly what is not set', async (t) => {
  const bare = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
  try {
    const tenant = await seedPlatformTenant(bare.ownerDb, { kyb: 'verified' });
    const year = new Date().getUTCFullYear();
    const res = await bare.request(`/api/v1/tenant/fiscal/attestation/${year}`, {
      headers: { 'X-Tenant-Key': tenant.keys.sk_test },
    });
    const a = (await readJson(res)).data;
    t.like(a, {
      publisher: { name: null, siren: null, configured: false },
      chain: { entries_count: 0, last_chain_hash: null },
    });
    t.regex(a.declaration.paragraphs.join(' '), /non renseigné \(PUBLISHER_NAME\)/);
    const file = await bare.request(`/api/v1/tenant/fiscal/attestation/${year}/download`, {
      headers: { 'X-Tenant-Key': tenant.keys.sk_test },
    });
    t.true((await pdf(file, 'bare')).includes('non renseigné (PUBLISHER_SIGNATORY)'));
  } finally {
    await bare.close();
  }
});
