import { randomUUID } from 'node:crypto';
import test from 'ava';
import { generateCreditNoteDocuments } from '../../domain/credit-notes/operations/generate-credit-note-documents.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { expectInvalid, expectRefusal } from '../helpers/assertions.js';
import { postJson, readJson } from '../helpers/http.js';
import { type SeededTenant, seedPlatformTenant, seedUser, seedUserKey } from '../helpers/identities.js';
import { createInvoice, invoiceBody } from '../helpers/invoices.js';
import { queuedJobs } from '../helpers/seed.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let tenant: SeededTenant;

test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
  tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
});
test.after.always(() => app?.close());

// biome-ignore lint/suspicious/noExplicitAny: tests read views loosely
type Json = any;
const key = () => tenant.keys.sk_test;
const headersOf = (k: string) => ({ 'X-API-Key': k });
const post = (path: string, body: unknown, k = key()) => app.request(path, postJson(body, headersOf(k)));
const get = (path: string, k = key()) => app.request(path, { headers: headersOf(k) });
const credit = (body: Record<string, unknown>, k = key()) => post('/api/v1/credit-notes', body, k);
const remaining = async (invoiceId: string, k = key()) => {
  const res = await get(`/api/v1/invoices/${invoiceId}/remaining-creditable`, k);
  const body = await readJson(res);
  if (res.status !== 200) throw new Error(`remaining-creditable: ${res.status} ${JSON.stringify(body)}`);
  return body.data;
};
/** The invoice of the default body: Conseil 5 × 200 at 20 %, Formation 2 × 125 at 10 %; 1250.00 HT. */
const invoice = (k = key(), overrides = {}) => createInvoice(app.request, k, overrides);
const item = (description: string, quantity: number, unit_price: number, tax_rate: number) => ({
  description,
  quantity,
  unit_price,
  tax_rate,
});
const CONSEIL = (quantity: number, price = 200) => item('Conseil', quantity, price, 20);
const FORMATION = (quantity: number, price = 125) => item('Formation', quantity, price, 10);
const count = async (query: Promise<unknown[]>) => (await query).length;
const lineFigures = (r: Json) =>
  r.lines.map((l: Json) => [l.line_number, l.credited_quantity, l.remaining_quantity, l.credited_ht, l.remaining_ht]);

test('remaining creditable stays right through partial credit notes, refused ones and a total one', async (t) => {
  const inv = await invoice();
  const start = await remaining(inv.id);
  t.like(start, { invoice_id: inv.id, invoice_total_ht: 1250, already_credited_ht: 0, remaining_creditable_ht: 1250 });
  t.deepEqual(
    start.lines.map((l: Json) => [l.description, l.original_quantity, l.credited_quantity, l.remaining_quantity]),
    [
      ['Conseil', 5, 0, 5],
      ['Formation', 2, 0, 2],
    ],
  );

  // 1. Two days of consulting credited: 400.00 HT at 20 %.
  let res = await credit({ invoice_id: inv.id, reason: 'Deux jours annulés', items: [CONSEIL(2)] });
  let body = await readJson(res);
  t.is(res.status, 201, JSON.stringify(body));
  t.is(body.message, 'Credit note created.');
  t.like(body.data, {
    invoice_id: inv.id,
    invoice_number: inv.invoice_number,
    type: 'partial',
    status: 'draft',
    total_ht: 400,
    total_tax: 80,
    total_ttc: 480,
    environment: 'sandbox',
    amount_charged: 0,
    documents_status: 'pending',
  });
  t.like(body.data.items[0], { line_number: 1, invoice_line_number: 1, quantity: 2, total_ht: 400, vat_category: 'S' });
  let r = await remaining(inv.id);
  t.like(r, { already_credited_ht: 400, remaining_creditable_ht: 850, fully_credited: false });
  t.deepEqual(lineFigures(r), [
    [1, 2, 3, 400, 600],
    [2, 0, 2, 0, 250],
  ]);

  // 2. A price reduction on one training day (line named by number): 1 × 50.00 at 10 %.
  res = await credit({ invoice_id: inv.id, reason: 'Remise', items: [{ ...FORMATION(1, 50), line_number: 2 }] });
  t.is(res.status, 201);
  r = await remaining(inv.id);
  t.like(r, { already_credited_ht: 450, remaining_creditable_ht: 800 });
  t.deepEqual(lineFigures(r), [
    [1, 2, 3, 400, 600],
    [2, 1, 1, 50, 200],
  ]);

  // 3. Refused: more days than remain; more amount than remains on the training line.
  const tooMany = await expectRefusal(
    t,
    await credit({ invoice_id: inv.id, reason: 'Trop', items: [CONSEIL(4)] }),
    422,
    'CREDIT_EXCEEDS_REMAINING',
  );
  t.is(tooMany.remaining_creditable_ht, 800);
  t.truthy(tooMany.details['items.0.quantity']);
  const tooMuch = await expectRefusal(
    t,
    await credit({ invoice_id: inv.id, reason: 'Trop', items: [CONSEIL(1), FORMATION(1, 250)] }),
    422,
    'CREDIT_EXCEEDS_REMAINING',
  );
  t.truthy(tooMuch.details['items.1.unit_price']);
  t.deepEqual(lineFigures(await remaining(inv.id)), lineFigures(r), 'a refused credit note changes nothing');

  // 4. Everything that remains: a total credit note.
  res = await credit({ invoice_id: inv.id, reason: 'Annulation', items: [CONSEIL(3), FORMATION(1, 200)] });
  body = await readJson(res);
  t.is(res.status, 201, JSON.stringify(body));
  t.like(body.data, { type: 'total', total_ht: 800, total_tax: 140, total_ttc: 940 });
  r = await remaining(inv.id);
  t.like(r, { already_credited_ht: 1250, remaining_creditable_ht: 0, fully_credited: true });
  t.deepEqual(lineFigures(r), [
    [1, 5, 0, 1000, 0],
    [2, 2, 0, 250, 0],
  ]);

  // 5. Nothing is left: refused.
  await expectRefusal(
    t,
    await credit({ invoice_id: inv.id, reason: 'Encore', items: [FORMATION(0.001, 1)] }),
    422,
    'CREDIT_EXCEEDS_REMAINING',
  );

  // Each credit note: a ledger entry of the shape the FEC reads, audit entries, an event, a document job.
  const notes = await app.ownerDb('credit_notes').where({ invoice_id: inv.id }).orderBy('created_at');
  t.is(notes.length, 3);
  const entries = await app
    .ownerDb('fiscal_entries')
    .whereIn(
      'entity_id',
      notes.map((n) => n.id),
    )
    .orderBy('sequence_number');
  t.deepEqual(
    entries.map((e) => [e.entry_type, e.entity_type, JSON.parse(e.canonical_data).total_ht]),
    [
      ['credit_note_issued', 'credit_note', '400.00'],
      ['credit_note_issued', 'credit_note', '50.00'],
      ['credit_note_issued', 'credit_note', '800.00'],
    ],
  );
  const last = JSON.parse(entries[2].canonical_data);
  t.like(last, { invoice_id: inv.id, invoice_number: inv.invoice_number, direction: 'outgoing', total_tax: '140.00' });
  t.deepEqual(JSON.parse(last.vat_breakdown), [
    { rate: '20.00', taxable_amount: '600.00', tax_amount: '120.00' },
    { rate: '10.00', taxable_amount: '200.00', tax_amount: '20.00' },
  ]);
  t.deepEqual(
    (await app.ownerDb('audit_entries').where({ entity_id: notes[0].id })).map((a) => a.action),
    ['credit_note.created'],
  );
  const invoiceTrail = await app.ownerDb('audit_entries').where({ entity_id: inv.id }).orderBy('sequence_number');
  t.deepEqual(
    invoiceTrail.map((a) => a.action),
    ['invoice.created', 'invoice.credited', 'invoice.credited', 'invoice.credited'],
  );
  const events = await app.ownerDb('events').where({ tenant_id: tenant.tenantId, name: 'credit_note.created' });
  t.deepEqual(
    notes.map((n) => events.some((e) => e.data.id === n.id && e.data.invoice_id === inv.id)),
    [true, true, true],
  );
  const jobs = await queuedJobs(app.ownerDb, 'generate-credit-note-documents');
  t.deepEqual(
    notes.map((n) => jobs.some((j) => j.creditNoteId === n.id)),
    [true, true, true],
  );

  // Filters and pagination.
  const list = await readJson(await get(`/api/v1/credit-notes?invoice_id=${inv.id}`));
  t.is(list.data.length, 3);
  t.like(list.meta, { current_page: 1, per_page: 15, total: 3 });
  const totals = await readJson(await get(`/api/v1/credit-notes?invoice_id=${inv.id}&type=total`));
  t.deepEqual(
    totals.data.map((c: Json) => c.total_ht),
    [800],
  );
  const sent = await readJson(await get(`/api/v1/credit-notes?invoice_id=${inv.id}&status=sent`));
  t.is(sent.data.length, 0);
  const paged = await readJson(await get(`/api/v1/credit-notes?invoice_id=${inv.id}&per_page=2&page=2`));
  t.like(paged.meta, { current_page: 2, last_page: 2, per_page: 2, total: 3 });
  t.is(paged.data.length, 1);
});

const rateFigures = (r: Json) =>
  r.rates.map((x: Json) => [x.tax_rate, x.vat_category, x.credited_ht, x.free_credited_ht, x.remaining_ht]);

test('free items (avoirs commerciaux): at one of the invoice rates, capped at the rate and in total, mixed with bound items', async (t) => {
  const inv = await invoice();
  t.deepEqual(rateFigures(await remaining(inv.id)), [
    [20, 'S', 0, 0, 1000],
    [10, 'S', 0, 0, 250],
  ]);

  // 1. A goodwill gesture that names no invoice line, at 20 %: accepted, bound to no line.
  let res = await credit({
    invoice_id: inv.id,
    reason: 'Geste commercial suite au retard',
    items: [item('Geste commercial', 1, 150, 20)],
  });
  let body = await readJson(res);
  t.is(res.status, 201, JSON.stringify(body));
  t.like(body.data, { type: 'partial', total_ht: 150, total_tax: 30, total_ttc: 180 });
  t.like(body.data.items[0], {
    line_number: 1,
    invoice_line_number: null,
    description: 'Geste commercial',
    vat_category: 'S',
    tax_rate: 20,
    total_ht: 150,
    total_tax: 30,
  });
  let r = await remaining(inv.id);
  t.like(r, { already_credited_ht: 150, remaining_creditable_ht: 1100, fully_credited: false });
  t.deepEqual(
    lineFigures(r),
    [
      [1, 0, 5, 0, 1000],
      [2, 0, 2, 0, 250],
    ],
    'a free item takes nothing from a line',
  );
  t.deepEqual(rateFigures(r), [
    [20, 'S', 150, 150, 850],
    [10, 'S', 0, 0, 250],
  ]);
  const entry = await app.ownerDb('fiscal_entries').where({ entity_id: body.data.id }).first();
  t.deepEqual(JSON.parse(JSON.parse(entry.canonical_data).vat_breakdown), [
    { rate: '20.00', taxable_amount: '150.00', tax_amount: '30.00' },
  ]);

  // 2. A rate the invoice does not have: 422 naming the field.
  await expectInvalid(
    t,
    await credit({ invoice_id: inv.id, reason: 'Remise', items: [CONSEIL(1), item('Remise', 1, 10, 5.5)] }),
    'items.1.tax_rate',
  );

  // 3. Above what remains at the rate (250.00 at 10 %), though within the total.
  let refused = await expectRefusal(
    t,
    await credit({ invoice_id: inv.id, reason: 'Remise', items: [item('Remise', 1, 250.01, 10)] }),
    422,
    'CREDIT_EXCEEDS_REMAINING',
  );
  t.regex(refused.details['items.0.unit_price'][0], /at 10 %.*250\.00 left/);
  t.falsy(refused.details.items, 'the total is not exceeded');
  t.deepEqual(refused.remaining_by_rate, [
    { tax_rate: 20, vat_category: 'S', remaining_ht: 850 },
    { tax_rate: 10, vat_category: 'S', remaining_ht: 250 },
  ]);

  // 4. Above what remains in total (1100.00).
  refused = await expectRefusal(
    t,
    await credit({
      invoice_id: inv.id,
      reason: 'Remise',
      items: [item('Remise', 1, 900, 20), item('Remise', 1, 250, 10)],
    }),
    422,
    'CREDIT_EXCEEDS_REMAINING',
  );
  t.regex(refused.details.items[0], /credit 1150\.00 excluding VAT; the invoice has 1100\.00 left/);
  t.is(refused.remaining_creditable_ht, 1100);

  // 5. Bound and free items together: two days of consulting, a discount at 20 %, a training day.
  res = await credit({
    invoice_id: inv.id,
    reason: 'Avoir mixte',
    items: [CONSEIL(2), item('Remise fidélité', 1, 100, 20), FORMATION(1)],
  });
  body = await readJson(res);
  t.is(res.status, 201, JSON.stringify(body));
  t.like(body.data, { total_ht: 625, total_tax: 112.5, total_ttc: 737.5 });
  t.deepEqual(
    body.data.items.map((i: Json) => [i.invoice_line_number, i.total_ht]),
    [
      [1, 400],
      [null, 100],
      [2, 125],
    ],
  );
  r = await remaining(inv.id);
  t.like(r, { already_credited_ht: 775, remaining_creditable_ht: 475 });
  t.deepEqual(lineFigures(r), [
    [1, 2, 3, 400, 600],
    [2, 1, 1, 125, 125],
  ]);
  t.deepEqual(rateFigures(r), [
    [20, 'S', 650, 250, 350],
    [10, 'S', 125, 0, 125],
  ]);

  // 6. The consulting line still has 600.00, but only 350.00 remain at 20 %: free items count there.
  refused = await expectRefusal(
    t,
    await credit({ invoice_id: inv.id, reason: 'Trop', items: [CONSEIL(2)] }),
    422,
    'CREDIT_EXCEEDS_REMAINING',
  );
  t.regex(refused.details['items.0.unit_price'][0], /at 20 %.*350\.00 left/);

  // 7. Everything that remains, bound and free: a total credit note; nothing is left.
  res = await credit({
    invoice_id: inv.id,
    reason: 'Solde',
    items: [CONSEIL(1.5), item('Geste commercial', 1, 50, 20), FORMATION(1)],
  });
  body = await readJson(res);
  t.is(res.status, 201, JSON.stringify(body));
  t.like(body.data, { type: 'total', total_ht: 475 });
  r = await remaining(inv.id);
  t.like(r, { already_credited_ht: 1250, remaining_creditable_ht: 0, fully_credited: true });
  t.deepEqual(rateFigures(r), [
    [20, 'S', 1000, 300, 0],
    [10, 'S', 250, 0, 0],
  ]);
  await expectRefusal(
    t,
    await credit({ invoice_id: inv.id, reason: 'Encore', items: [item('Geste commercial', 1, 0.01, 10)] }),
    422,
    'CREDIT_EXCEEDS_REMAINING',
  );

  // Deleting a draft gives its free items back at their rate.
  const notes = await app.ownerDb('credit_notes').where({ invoice_id: inv.id }).orderBy('created_at');
  t.is(
    (await app.request(`/api/v1/credit-notes/${notes[0].id}`, { method: 'DELETE', headers: headersOf(key()) })).status,
    200,
  );
  t.deepEqual(rateFigures(await remaining(inv.id)), [
    [20, 'S', 850, 150, 150],
    [10, 'S', 250, 0, 0],
  ]);
});

test('a free item at a 0 % rate the invoice has under two categories names its vat_category', async (t) => {
  const inv = await invoice(key(), {
    buyer_vat_number: 'FR83443061841',
    total_ht: 3400,
    total_tax: 0,
    total_ttc: 3400,
    lines: [
      { ...item('Formation professionnelle', 2, 500, 0), total_ht: 1000, total_tax: 0, total_ttc: 1000 },
      {
        ...item('Sous-traitance', 4, 600, 0),
        vat_category: 'AE',
        total_ht: 2400,
        total_tax: 0,
        total_ttc: 2400,
      },
    ],
  });
  const remise = item('Remise', 1, 100, 0);
  await expectInvalid(
    t,
    await credit({ invoice_id: inv.id, reason: 'Remise', items: [remise] }),
    'items.0.vat_category',
  );
  await expectInvalid(
    t,
    await credit({ invoice_id: inv.id, reason: 'Remise', items: [{ ...remise, vat_category: 'K' }] }),
    'items.0.vat_category',
  );
  // A bound item keeps its line's category.
  await expectInvalid(
    t,
    await credit({
      invoice_id: inv.id,
      reason: 'Remise',
      items: [{ ...item('Sous-traitance', 1, 600, 0), vat_category: 'E' }],
    }),
    'items.0.vat_category',
  );
  const res = await credit({ invoice_id: inv.id, reason: 'Remise', items: [{ ...remise, vat_category: 'AE' }] });
  const body = await readJson(res);
  t.is(res.status, 201, JSON.stringify(body));
  t.like(body.data.items[0], { invoice_line_number: null, vat_category: 'AE', total_ht: 100, total_tax: 0 });
  const line = await app.ownerDb('credit_note_lines').where({ credit_note_id: body.data.id }).first();
  t.is(line.vat_exemption_reason, 'Autoliquidation', "the invoice's reason at that rate");
  t.deepEqual(rateFigures(await remaining(inv.id)), [
    [0, 'E', 0, 0, 1000],
    [0, 'AE', 100, 100, 2300],
  ]);
});

test('ten parallel credit notes of 60 % of one invoice: one succeeds, nine get 422, three rounds in a row', async (t) => {
  for (let round = 0; round < 3; round++) {
    const inv = await invoice(key(), {
      total_ht: 1000,
      total_tax: 200,
      total_ttc: 1200,
      lines: [
        {
          description: 'Licence',
          quantity: 10,
          unit_price: 100,
          tax_rate: 20,
          total_ht: 1000,
          total_tax: 200,
          total_ttc: 1200,
        },
      ],
    });
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        credit({ invoice_id: inv.id, reason: `Round ${round}`, items: [item('Licence', 6, 100, 20)] }),
      ),
    );
    const bodies = await Promise.all(responses.map(readJson));
    const statuses = responses.map((res) => res.status).sort();
    t.deepEqual(statuses, [201, ...Array(9).fill(422)], `round ${round}: ${JSON.stringify(bodies)}`);
    t.true(
      bodies.filter((b) => b.code).every((b) => b.code === 'CREDIT_EXCEEDS_REMAINING'),
      `round ${round}`,
    );
    const r = await remaining(inv.id);
    t.like(r, { already_credited_ht: 600, remaining_creditable_ht: 400 }, `round ${round}`);
    t.is(await count(app.ownerDb('credit_notes').where({ invoice_id: inv.id })), 1);
  }
});

test('production: 0.04 EUR debited with the credit note, 402 and nothing written when the balance is short', async (t) => {
  const prod = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  await app.ownerDb('balances').where({ tenant_id: prod.tenantId }).update({ amount: '0.08' });
  const inv = await invoice(prod.keys.sk_live);
  const res = await credit({ invoice_id: inv.id, reason: 'Erreur', items: [CONSEIL(1)] }, prod.keys.sk_live);
  const body = await readJson(res);
  t.is(res.status, 201, JSON.stringify(body));
  t.like(body.data, { environment: 'production', amount_charged: 0.04 });
  const balance = await app.ownerDb('balances').where({ tenant_id: prod.tenantId }).first();
  t.is(Number(balance.amount), 0);
  const debit = await app.ownerDb('balance_transactions').where({ reference_id: body.data.id }).first();
  t.like(debit, { type: 'credit_note_created', reference_type: 'credit_note' });
  t.is(Number(debit.amount), -0.04);

  const entriesBefore = await count(app.ownerDb('fiscal_entries').where({ tenant_id: prod.tenantId }));
  const short = await expectRefusal(
    t,
    await credit({ invoice_id: inv.id, reason: 'Encore', items: [CONSEIL(1)] }, prod.keys.sk_live),
    402,
    'INSUFFICIENT_BALANCE',
  );
  t.is(short.required, 0.04);
  t.is(await count(app.ownerDb('credit_notes').where({ invoice_id: inv.id })), 1);
  t.is(await count(app.ownerDb('fiscal_entries').where({ tenant_id: prod.tenantId })), entriesBefore);
  t.like(await remaining(inv.id, prod.keys.sk_live), { already_credited_ht: 200 });
});

test('the kill switch blocks credit-note creation (503), and nothing is written', async (t) => {
  const owner = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const inv = await invoice(owner.keys.sk_test);
  await app.ownerDb('fiscal_kill_switches').insert({
    tenant_id: owner.tenantId,
    environment: 'sandbox',
    active: true,
    reason: 'audit en cours',
    activated_at: new Date(),
    updated_at: new Date(),
  });
  const res = await credit({ invoice_id: inv.id, reason: 'Erreur', items: [CONSEIL(1)] }, owner.keys.sk_test);
  const body = await readJson(res);
  t.is(res.status, 503, JSON.stringify(body));
  t.like(body, { code: 'FISCAL_KILLSWITCH_ACTIVE', error: 'fiscal_kill_switch_active' });
  t.is(await count(app.ownerDb('credit_notes').where({ invoice_id: inv.id })), 0);
});

test('draft → sent is irreversible; a sent credit note cannot be deleted (403) nor changed; a draft can', async (t) => {
  const inv = await invoice();
  const first = (await readJson(await credit({ invoice_id: inv.id, reason: 'A', items: [CONSEIL(1)] }))).data;
  const second = (await readJson(await credit({ invoice_id: inv.id, reason: 'B', items: [CONSEIL(2)] }))).data;

  let res = await post(`/api/v1/credit-notes/${first.id}/send`, {});
  let body = await readJson(res);
  t.is(res.status, 200, JSON.stringify(body));
  t.is(body.message, 'Credit note sent.');
  t.is(body.data.status, 'sent');
  t.truthy(body.data.sent_at);
  await expectRefusal(t, await post(`/api/v1/credit-notes/${first.id}/send`, {}), 409, 'INVALID_STATE');
  const del = (id: string) =>
    app.request(`/api/v1/credit-notes/${id}`, { method: 'DELETE', headers: headersOf(key()) });
  await expectRefusal(t, await del(first.id), 403, 'CREDIT_NOTE_IMMUTABLE');
  t.is((await readJson(await get(`/api/v1/credit-notes/${first.id}`))).data.status, 'sent');
  const sentEvents = await app.ownerDb('events').where({ tenant_id: tenant.tenantId, name: 'credit_note.sent' });
  t.true(sentEvents.some((e) => e.data.id === first.id));
  t.deepEqual(
    (await app.ownerDb('audit_entries').where({ entity_id: first.id }).orderBy('sequence_number')).map((a) => a.action),
    ['credit_note.created', 'credit_note.sent'],
  );
  // The database refuses too, whoever writes: back to draft, a new amount, a removal.
  for (const change of [
    () => app.ownerDb('credit_notes').where({ id: first.id }).update({ status: 'draft', sent_at: null }),
    () => app.ownerDb('credit_notes').where({ id: first.id }).update({ reason: 'autre' }),
    () => app.ownerDb('credit_notes').where({ id: first.id }).delete(),
    () => app.ownerDb('credit_note_lines').where({ credit_note_id: first.id }).update({ quantity: 5 }),
  ]) {
    const err = await t.throwsAsync(change());
    t.regex(err.message, /credit note|credit_note/);
  }

  t.like(await remaining(inv.id), { already_credited_ht: 600 });
  res = await del(second.id);
  body = await readJson(res);
  t.is(res.status, 200, JSON.stringify(body));
  t.truthy(body.data.deleted_at);
  t.is((await get(`/api/v1/credit-notes/${second.id}`)).status, 404);
  t.is((await del(second.id)).status, 404);
  const list = await readJson(await get(`/api/v1/credit-notes?invoice_id=${inv.id}`));
  t.deepEqual(
    list.data.map((c: Json) => c.id),
    [first.id],
  );
  t.like(
    await remaining(inv.id),
    { already_credited_ht: 200, remaining_creditable_ht: 1050 },
    'the draft gave its amount back',
  );
  t.is(await count(app.ownerDb('fiscal_entries').where({ entity_id: second.id })), 1, 'its ledger entry stays');
});

test('numbers: AV-YYYY-NNNN per owner and year, a taken number is 409, a hand-given one is skipped', async (t) => {
  const owner = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const inv = await invoice(owner.keys.sk_test);
  const make = async (extra: Record<string, unknown> = {}) => {
    const res = await credit({ invoice_id: inv.id, reason: 'N', items: [CONSEIL(0.1)], ...extra }, owner.keys.sk_test);
    return { status: res.status, body: await readJson(res) };
  };
  const a = await make({ issue_date: '2026-11-21' });
  const b = await make({ issue_date: '2026-11-22' });
  t.deepEqual([a.body.data.credit_note_number, b.body.data.credit_note_number], ['AV-2026-0001', 'AV-2026-0002']);
  const mine = await make({ credit_note_number: 'AV-2026-0003' });
  t.is(mine.status, 201);
  const dup = await make({ credit_note_number: 'AV-2026-0003' });
  t.is(dup.status, 409);
  t.like(dup.body, { code: 'DUPLICATE_CREDIT_NOTE_NUMBER', existing_id: mine.body.data.id });
  const next = await make({ issue_date: '2027-01-05' });
  t.is(next.body.data.credit_note_number, 'AV-2027-0001');
  const skipped = await make();
  t.regex(skipped.body.data.credit_note_number, /^AV-\d{4}-\d{4}$/);
  t.not(skipped.body.data.credit_note_number, 'AV-2026-0003');
});

test('bad bodies are clear 422s, a deleted invoice 409, a foreign invoice 404; nothing written', async (t) => {
  const inv = await invoice();
  await expectInvalid(t, await credit({ invoice_id: inv.id, reason: 'x', items: [] }), 'items');
  await expectInvalid(t, await credit({ invoice_id: inv.id, items: [CONSEIL(1)] }), 'reason');
  // A description no line has makes a free item: at a rate the invoice does not have, it names tax_rate.
  await expectInvalid(
    t,
    await credit({ invoice_id: inv.id, reason: 'x', items: [item('Inconnu', 1, 1, 5.5)] }),
    'items.0.tax_rate',
  );
  await expectInvalid(
    t,
    await credit({
      invoice_id: inv.id,
      reason: 'x',
      items: [{ ...CONSEIL(1), tax_rate: 10 }],
    }),
    'items.0.tax_rate',
  );
  await expectInvalid(
    t,
    await credit({ invoice_id: inv.id, reason: 'x', items: [{ ...CONSEIL(1), line_number: 9 }] }),
    'items.0.line_number',
  );
  await expectInvalid(
    t,
    await credit({ invoice_id: inv.id, reason: 'x', items: [CONSEIL(1.00001)] }),
    'items.0.quantity',
  );
  await expectInvalid(
    t,
    await credit({ invoice_id: inv.id, reason: 'x', items: [CONSEIL(1, 0)] }),
    'items.0.unit_price',
  );
  await expectInvalid(
    t,
    await credit({ invoice_id: inv.id, reason: 'x', issue_date: '2026-01-01', items: [CONSEIL(1)] }),
    'issue_date',
  );
  t.is(await count(app.ownerDb('credit_notes').where({ invoice_id: inv.id })), 0);

  const draft = await invoice();
  await app.request(`/api/v1/invoices/${draft.id}`, { method: 'DELETE', headers: headersOf(key()) });
  await expectRefusal(
    t,
    await credit({ invoice_id: draft.id, reason: 'x', items: [CONSEIL(1)] }),
    409,
    'INVALID_STATE',
  );

  const other = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  await expectRefusal(
    t,
    await credit({ invoice_id: inv.id, reason: 'x', items: [CONSEIL(1)] }, other.keys.sk_test),
    404,
    'NOT_FOUND',
  );
  await expectRefusal(
    t,
    await get(`/api/v1/invoices/${inv.id}/remaining-creditable`, other.keys.sk_test),
    404,
    'NOT_FOUND',
  );
  await expectRefusal(
    t,
    await credit({ invoice_id: inv.id, reason: 'x', items: [CONSEIL(1)] }, tenant.keys.sk_live),
    404,
    'NOT_FOUND',
  );
  await expectRefusal(
    t,
    await credit({ invoice_id: randomUUID(), reason: 'x', items: [CONSEIL(1)] }),
    404,
    'NOT_FOUND',
  );
});

test("a dashboard user credits its own key's invoice with its bearer token; others see 404", async (t) => {
  const user = await seedUser(app.ownerDb);
  const userKey = await seedUserKey(app.ownerDb, user, {});
  const inv = await invoice(userKey);
  const bearer = { Authorization: `Bearer ${user.token}`, 'Content-Type': 'application/json' };
  const res = await app.request('/api/v1/credit-notes', {
    method: 'POST',
    headers: bearer,
    body: JSON.stringify({ invoice_id: inv.id, reason: 'Erreur de prix', items: [CONSEIL(1, 20)] }),
  });
  const body = await readJson(res);
  t.is(res.status, 201, JSON.stringify(body));
  t.like(body.data, { environment: 'sandbox', total_ht: 20 });
  const read = await app.request(`/api/v1/credit-notes/${body.data.id}`, { headers: bearer });
  t.is(read.status, 200);
  const r = await readJson(await app.request(`/api/v1/invoices/${inv.id}/remaining-creditable`, { headers: bearer }));
  t.like(r.data, { already_credited_ht: 20 });
  t.deepEqual(
    (await readJson(await get('/api/v1/credit-notes', userKey))).data.map((c: Json) => c.id),
    [body.data.id],
  );
  t.is((await get(`/api/v1/credit-notes/${body.data.id}`)).status, 404, "another account's key");
});

test('tenant routes: a sub-tenant credits its own invoices only, and lists its credit notes', async (t) => {
  const [sub] = await app
    .ownerDb('sub_tenants')
    .insert({ tenant_id: tenant.tenantId, environment: 'sandbox', name: 'Client', external_id: `ext-${randomUUID()}` })
    .returning('id');
  const tk = { 'X-Tenant-Key': key() };
  const created = await readJson(
    await app.request(`/api/v1/tenant/sub-tenants/${sub.id}/invoices`, postJson(invoiceBody(), tk)),
  );
  const subInvoice = created.data;
  const own = await invoice();
  const path = `/api/v1/tenant/sub-tenants/${sub.id}/credit-notes`;
  let res = await app.request(path, postJson({ invoice_id: subInvoice.id, reason: 'Retour', items: [CONSEIL(1)] }, tk));
  const body = await readJson(res);
  t.is(res.status, 201, JSON.stringify(body));
  t.is(body.data.sub_tenant_id, sub.id);
  res = await app.request(path, postJson({ invoice_id: own.id, reason: 'Retour', items: [CONSEIL(1)] }, tk));
  await expectRefusal(t, res, 404, 'NOT_FOUND');
  res = await app.request(
    `/api/v1/tenant/sub-tenants/${randomUUID()}/credit-notes`,
    postJson({ invoice_id: subInvoice.id, reason: 'R', items: [CONSEIL(1)] }, tk),
  );
  await expectRefusal(t, res, 404, 'NOT_FOUND');
  const list = await readJson(await app.request(path, { headers: tk }));
  t.deepEqual(
    list.data.map((c: Json) => c.id),
    [body.data.id],
  );
  t.is(list.meta.per_page, 15);
  const entry = await app.ownerDb('fiscal_entries').where({ entity_id: body.data.id }).first();
  t.is(entry.sub_tenant_id, sub.id, "the sub-tenant's own fiscal chain");
});

test('download: the PDF itself by default, other kinds with ?type=, a signed 15-minute link with ?link=true', async (t) => {
  const inv = await invoice();
  const note = (await readJson(await credit({ invoice_id: inv.id, reason: 'Retour', items: [CONSEIL(1)] }))).data;
  const generated = await execute(
    generateCreditNoteDocuments,
    { id: note.id },
    systemCaller(tenant.tenantId),
    app.deps,
  );
  t.deepEqual(generated.files.map((f) => f.kind).sort(), ['cii', 'facturx', 'pdf', 'ubl']);
  const again = await execute(generateCreditNoteDocuments, { id: note.id }, systemCaller(tenant.tenantId), app.deps);
  t.is(again.documents_status, 'skipped');
  const stored = await app
    .ownerDb('credit_note_documents')
    .where({ credit_note_id: note.id })
    .select('kind', 'content');
  const bytesOf = (kind: string) => stored.find((d: { kind: string }) => d.kind === kind)!.content as Buffer;

  // The specification's answer: the PDF, its bytes.
  const direct = await get(`/api/v1/credit-notes/${note.id}/download`);
  t.is(direct.status, 200);
  t.is(direct.headers.get('content-type'), 'application/pdf');
  t.regex(direct.headers.get('content-disposition') ?? '', /^attachment; filename="/);
  const pdfBytes = Buffer.from(await direct.arrayBuffer());
  t.is(pdfBytes.subarray(0, 5).toString(), '%PDF-');
  t.true(pdfBytes.equals(bytesOf('pdf')), 'the stored readable PDF');
  for (const [kind, type] of [
    ['facturx', 'application/pdf'],
    ['ubl', 'application/xml'],
    ['cii', 'application/xml'],
  ] as const) {
    const res = await get(`/api/v1/credit-notes/${note.id}/download?type=${kind}`);
    t.is(res.status, 200, kind);
    t.true((res.headers.get('content-type') ?? '').startsWith(type), `${kind}: ${res.headers.get('content-type')}`);
    t.true(Buffer.from(await res.arrayBuffer()).equals(bytesOf(kind)), kind);
  }
  await expectInvalid(t, await get(`/api/v1/credit-notes/${note.id}/download?type=xml`), 'type');
  const other = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  await expectRefusal(t, await get(`/api/v1/credit-notes/${note.id}/download`, other.keys.sk_test), 404, 'NOT_FOUND');

  // ?link=true: today's JSON link, valid 15 minutes without credentials.
  const linked = await get(`/api/v1/credit-notes/${note.id}/download?link=true`);
  t.true((linked.headers.get('content-type') ?? '').startsWith('application/json'));
  const link = await readJson(linked);
  t.deepEqual(Object.keys(link).sort(), ['expires_at', 'url']);
  const pdf = await app.request(new URL(link.url).pathname);
  t.is(pdf.status, 200);
  t.is(pdf.headers.get('content-type'), 'application/pdf');
  t.true(Buffer.from(await pdf.arrayBuffer()).equals(bytesOf('pdf')));
  const ublLink = await readJson(await get(`/api/v1/credit-notes/${note.id}/download?type=ubl&link=true`));
  const ubl = await (await app.request(new URL(ublLink.url).pathname)).text();
  t.regex(ubl, /<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"/);
  t.regex(ubl, new RegExp(`<cac:InvoiceDocumentReference><cbc:ID>${inv.invoice_number}</cbc:ID>`));
  const token = new URL(link.url).pathname.split('/').pop()!;
  t.is((await app.request(`/api/v1/files/credit-notes/${token.slice(0, -2)}xx`)).status, 403);
  t.is((await app.request(`/api/v1/files/${token}`)).status, 403, 'an invoice link route does not open it');
});
