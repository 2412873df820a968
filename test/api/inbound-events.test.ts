import { createHmac } from 'node:crypto';
import test from 'ava';
import type { RouteSpec } from '../../api/http/route-spec.js';
import { AppError } from '../../domain/shared/app-error.js';
import { execute } from '../../domain/shared/execute.js';
import { defineCommand } from '../../domain/shared/operation.js';
import { type InboundHandler, processInboundEvent } from '../../domain/webhooks/operations/process-inbound-event.js';
import type { InboundCallbackInput, InboundEventOutcome } from '../../schemas/inbound-events.js';
import { expectRefusal as refusal } from '../helpers/assertions.js';
import { readJson } from '../helpers/http.js';
import { seedTenant } from '../helpers/seed.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const SECRET = 'superpdp-shared-secret';
const sign = (raw: string | Buffer, secret = SECRET) =>
  `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;

let app: TestApp;
let tenantId: string;

/** The handler's observable work: an outbox event row written in the processing transaction. */
const recordingHandler =
  (delayMs = 0): InboundHandler =>
  async (payload, ctx) => {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    const { event_id } = payload as { event_id: string };
    await ctx.tx('events').insert({
      tenant_id: tenantId,
      environment: 'sandbox',
      name: 'invoice.incoming.received',
      data: { id: event_id },
    });
  };
const failingHandler: InboundHandler = async (payload, ctx) => {
  await recordingHandler()(payload, ctx);
  throw new Error('the provider API is down');
};

const callback = (raw: string, signature: string | undefined, provider = 'superpdp') => ({
  provider,
  rawBody: Buffer.from(raw),
  signature,
  secret: SECRET,
  identify: (payload: unknown) => {
    const { event_id, type } = payload as { event_id?: string; type?: string };
    if (!event_id) throw AppError.validation({ event_id: ['is required'] });
    return { id: event_id, type };
  },
});

/** A callback route as the provider callbacks write them: the raw bytes and the signature header reach the operation. */
const inboundCommand = (handler: InboundHandler) =>
  defineCommand<InboundCallbackInput, InboundEventOutcome>({
    name: 'receive_test_callback',
    summary: 'Test route: a signed provider callback.',
    input: 'InboundCallbackInput',
    output: 'InboundEventOutcome',
    callers: ['anonymous'],
    transactional: false,
    run: (input, ctx) =>
      processInboundEvent(
        { ...callback('', input.signature), rawBody: Buffer.from(input.raw_body, 'base64') },
        handler,
        ctx.deps,
      ),
  });
const route = (path: string, handler: InboundHandler): RouteSpec => ({
  method: 'post',
  path,
  operation: inboundCommand(handler),
  tag: 'Inbound',
  auth: ['none'],
  envelope: 'raw',
  rateLimit: 'none',
  rawBody: { signatureHeader: 'X-SuperPDP-Signature' },
  errors: [401],
});

test.before(async () => {
  app = await startTestApp({
    routes: () => [route('/webhooks/test', recordingHandler()), route('/webhooks/test-failing', failingHandler)],
  });
  tenantId = (await seedTenant(app.ownerDb)).id;
});
test.after.always(() => app?.close());

const processedRows = (eventId: string) =>
  app.ownerDb('inbound_events').where({ provider: 'superpdp', event_id: eventId });
const handledRows = (eventId: string) =>
  app.ownerDb('events').where({ tenant_id: tenantId }).whereRaw("data->>'id' = ?", [eventId]);

test('10 concurrent identical deliveries: 1 processed, 9 already_processed, the work done once', async (t) => {
  const raw = JSON.stringify({ event_id: 'evt_concurrent', type: 'invoice.received' });
  const outcomes = await Promise.all(
    Array.from({ length: 10 }, () => processInboundEvent(callback(raw, sign(raw)), recordingHandler(150), app.deps)),
  );
  const statuses = outcomes.map((o) => o.status);
  t.is(statuses.filter((s) => s === 'processed').length, 1);
  t.is(statuses.filter((s) => s === 'already_processed').length, 9);
  t.is((await processedRows('evt_concurrent')).length, 1);
  t.is((await handledRows('evt_concurrent')).length, 1);
  t.like((await processedRows('evt_concurrent'))[0], { event_type: 'invoice.received' });
});

test('a failing handler records nothing, so the provider’s retry processes the event', async (t) => {
  const raw = JSON.stringify({ event_id: 'evt_retry', type: 'invoice.received' });
  await t.throwsAsync(processInboundEvent(callback(raw, sign(raw)), failingHandler, app.deps), {
    message: 'the provider API is down',
  });
  t.is((await processedRows('evt_retry')).length, 0);
  t.is((await handledRows('evt_retry')).length, 0, "the handler's own writes are rolled back with it");
  const retried = await processInboundEvent(callback(raw, sign(raw)), recordingHandler(), app.deps);
  t.is(retried.status, 'processed');
  t.is((await handledRows('evt_retry')).length, 1);
  const again = await processInboundEvent(callback(raw, sign(raw)), recordingHandler(), app.deps);
  t.deepEqual(again, { status: 'already_processed', provider: 'superpdp', event_id: 'evt_retry' });
  const other = await processInboundEvent(callback(raw, sign(raw), 'openapi'), recordingHandler(), app.deps);
  t.is(other.status, 'processed', 'the key is (provider, event id)');
});

test('a bad signature or body is refused before anything is recorded', async (t) => {
  const raw = JSON.stringify({ event_id: 'evt_forged' });
  const err = await t.throwsAsync(processInboundEvent(callback(raw, sign(raw, 'guess')), recordingHandler(), app.deps));
  t.like(err, { code: 'WEBHOOK_SIGNATURE_INVALID' });
  await t.throwsAsync(processInboundEvent(callback(raw, undefined), recordingHandler(), app.deps), {
    message: /no signature header/,
  });
  await t.throwsAsync(processInboundEvent(callback('not json', sign('not json')), recordingHandler(), app.deps), {
    message: 'The callback body is not valid JSON.',
  });
  const noId = JSON.stringify({ type: 'x' });
  await t.throwsAsync(processInboundEvent(callback(noId, sign(noId)), recordingHandler(), app.deps), {
    instanceOf: AppError,
  });
  t.is((await processedRows('evt_forged')).length, 0);
  // The table is the system's only: a tenant's transaction sees none of it.
  const seen = await execute(
    defineCommand({
      name: 'peek_inbound',
      summary: 'Test: count inbound events as a tenant.',
      input: 'EmptyInput',
      output: 'EmptyInput',
      callers: ['tenant'],
      run: async (_input, ctx) => ({ n: Number((await ctx.tx('inbound_events').count({ n: '*' }))[0].n) }),
    }),
    {},
    { kind: 'tenant', tenantId, environment: 'sandbox', scopes: [] },
    app.deps,
  );
  t.deepEqual(seen, { n: 0 });
});

test('over HTTP: the signature is checked on the exact bytes received, duplicates answer 200, failures 500', async (t) => {
  // Spacing, key order and an escape that a parse-and-serialize round trip would change.
  const raw = '{ "type" : "invoice.received",\n  "event_id":"evt_http", "seller":"Caf\\u00e9" }\r\n';
  const post = (path: string, body: string, signature: string) =>
    app.request(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-SuperPDP-Signature': signature },
      body,
    });
  const first = await post('/webhooks/test', raw, sign(raw));
  t.is(first.status, 200);
  t.deepEqual(await readJson(first), { status: 'processed', provider: 'superpdp', event_id: 'evt_http' });
  const duplicate = await post('/webhooks/test', raw, sign(raw));
  t.is(duplicate.status, 200);
  t.is((await readJson(duplicate)).status, 'already_processed');
  const reserialized = JSON.stringify(JSON.parse(raw));
  await refusal(t, await post('/webhooks/test', reserialized, sign(raw)), 401, 'WEBHOOK_SIGNATURE_INVALID');

  const failing = JSON.stringify({ event_id: 'evt_http_fail' });
  const res = await post('/webhooks/test-failing', failing, sign(failing));
  t.is(res.status, 500);
  t.is((await readJson(res)).code, 'INTERNAL_ERROR');
  t.is((await processedRows('evt_http_fail')).length, 0);
  t.is((await handledRows('evt_http_fail')).length, 0);
});
