import { randomUUID } from 'node:crypto';
import test from 'ava';
import {
  assertValidCompany,
  type CompanyFields,
  frenchVatKey,
  normalizeFields,
} from '../../domain/companies/company.js';
import { kycProviderFor } from '../../domain/companies/kyc-providers.js';
import {
  KYC_REJECTED_TEST_REASON,
  KYC_REJECTED_TEST_SIRET,
  simulatedKycProvider,
} from '../../domain/companies/simulated-kyc-provider.js';
import type { AppError } from '../../domain/shared/app-error.js';
import { loadConfig } from '../../domain/shared/config.js';
import { isValidSiret } from '../../domain/tenants/siret.js';

const subject = (siret: string) => ({ companyId: 'c', siret, name: 'Acme', vatNumber: null, country: 'FR' });

test('the simulator approves every company except the documented test SIRET, which is a valid SIRET', async (t) => {
  t.true(isValidSiret(KYC_REJECTED_TEST_SIRET));
  const one = await simulatedKycProvider.start(subject('73282932000074'));
  const two = await simulatedKycProvider.start(subject('73282932000074'));
  t.not(one.reference, two.reference);
  t.is(one.verificationUrl, null);
  t.deepEqual(await simulatedKycProvider.check({ reference: one.reference, siret: '73282932000074' }), {
    status: 'approved',
  });
  t.deepEqual(await simulatedKycProvider.check({ reference: one.reference, siret: KYC_REJECTED_TEST_SIRET }), {
    status: 'rejected',
    reason: KYC_REJECTED_TEST_REASON,
  });
});

test('French VAT keys', (t) => {
  t.is(frenchVatKey('303265045'), '40'); // FR40303265045, a common documentation example
  t.is(frenchVatKey('732829320'), '44');
  t.is(frenchVatKey('000000000'), '12');
});

test('normalizing trims, blanks optional fields to null and compacts the SIRET and VAT number', (t) => {
  t.deepEqual(
    normalizeFields({ name: ' Acme ', siret: '732 829 320 00074', vat_number: 'fr 44-732.829.320', email: ' ' }),
    {
      name: 'Acme',
      siret: '73282932000074',
      vat_number: 'FR44732829320',
      email: null,
    },
  );
});

test('every rule broken at once is reported field by field', (t) => {
  const company: CompanyFields = {
    name: '',
    siret: '73282932000075',
    vat_number: 'FR00732829320',
    legal_form: null,
    address_line1: 'x',
    address_line2: null,
    postal_code: 'abc',
    city: 'Paris',
    country: 'FR',
    phone: '12',
    email: null,
    website: 'javascript:alert(1)',
  };
  const err = t.throws(() => assertValidCompany(company)) as AppError;
  t.deepEqual(Object.keys(err.extra.fields ?? {}).sort(), ['name', 'phone', 'postal_code', 'siret', 'website']);
  // With a valid SIRET the VAT number is checked against it.
  const withSiret = t.throws(() => assertValidCompany({ ...company, siret: '73282932000074' })) as AppError;
  t.deepEqual(withSiret.extra.fields?.vat_number, ['does not match the SIRET: its VAT number is FR44732829320']);
});

test('the KYC simulator serves only with ENABLE_SIMULATORS; without it (and in production) KYC refuses to start', async (t) => {
  const subject = { companyId: randomUUID(), siret: '73282932000074', name: 'Acme', vatNumber: null, country: 'FR' };
  const local = kycProviderFor(loadConfig({ ENABLE_SIMULATORS: 'true' }));
  t.truthy((await local.start(subject)).reference);
  const production = kycProviderFor(
    loadConfig({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://app@db/einvoice',
      APP_KEY: `base64:${Buffer.alloc(32, 3).toString('base64')}`,
      SMTP_URL: 'smtp://mail.internal:587',
    }),
  );
  const err = await t.throwsAsync(production.start(subject));
  t.is((err as AppError).code, 'PROVIDER_UNAVAILABLE');
  const unflagged = await t.throwsAsync(kycProviderFor(loadConfig({})).start(subject));
  t.is((unflagged as AppError).code, 'PROVIDER_UNAVAILABLE');
});
