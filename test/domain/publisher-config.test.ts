import test from 'ava';
import { ConfigError, loadConfig } from '../../domain/shared/config.js';

test('the publisher settings are optional, read as given, and a SIREN must be one', (t) => {
  t.like(loadConfig({}), {
    fiscalAnchorPendingHours: 6,
    publisher: { name: null, siren: null, address: null, signatory: null, contact: null, softwareName: null },
  });
  t.like(
    loadConfig({
      PUBLISHER_NAME: 'Éditions Logicielles SAS',
      PUBLISHER_SIREN: '732 829 320',
      PUBLISHER_SIGNATORY: 'Jeanne Martin, présidente',
      SOFTWARE_NAME: 'Factura',
      FISCAL_ANCHOR_PENDING_HOURS: '12',
    }),
    {
      fiscalAnchorPendingHours: 12,
      publisher: {
        name: 'Éditions Logicielles SAS',
        siren: '732829320',
        signatory: 'Jeanne Martin, présidente',
        softwareName: 'Factura',
      },
    },
  );
  const err = t.throws(() => loadConfig({ PUBLISHER_SIREN: '732829321', FISCAL_ANCHOR_PENDING_HOURS: '0' }), {
    instanceOf: ConfigError,
  }) as ConfigError;
  t.deepEqual(err.problems, [
    'PUBLISHER_SIREN: must be a SIREN: 9 digits with a valid check digit (got "732829321")',
    'FISCAL_ANCHOR_PENDING_HOURS: must be an integer from 1 to 720 (got "0")',
  ]);
});

test('PUBLISHER_VAT_NUMBER is read compact and upper-cased, and must look like an EU VAT number', (t) => {
  t.is(loadConfig({}).publisher.vatNumber, null);
  t.is(loadConfig({ PUBLISHER_VAT_NUMBER: 'fr 44 732829320' }).publisher.vatNumber, 'FR44732829320');
  const err = t.throws(() => loadConfig({ PUBLISHER_VAT_NUMBER: '44732829320' }), {
    instanceOf: ConfigError,
  }) as ConfigError;
  t.deepEqual(err.problems, [
    'PUBLISHER_VAT_NUMBER: must be an intra-EU VAT number (FR + 2 key characters + SIREN for France) (got "44732829320")',
  ]);
});
