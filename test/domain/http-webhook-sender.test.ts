import test from 'ava';
import { httpWebhookSender } from '../../domain/webhooks/http-webhook-sender.js';
import type { WebhookRequest } from '../../domain/webhooks/webhook-sender.js';
import { startReceiver } from '../helpers/webhook-receiver.js';

// No nock: real connections to receivers on 127.0.0.1, counted by the receiver.

const request = (url: string, id: string): WebhookRequest => ({
  url,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ id }),
  timeout_ms: 3000,
});

test('deliveries to the same receiver share one kept connection', async (t) => {
  const receiver = await startReceiver();
  const sender = httpWebhookSender({ allowPrivate: true });
  try {
    for (const id of ['evt_1', 'evt_2', 'evt_3', 'evt_4', 'evt_5']) {
      const outcome = await sender.send(request(`${receiver.url}/hook`, id));
      t.true(outcome.success, outcome.error ?? '');
      t.is(outcome.response_body, 'ok');
    }
    t.is(receiver.requests.length, 5);
    t.is(receiver.connections(), 1, 'one handshake for five deliveries');
  } finally {
    await receiver.close();
  }
});

test('a kept connection the receiver drops as it is taken is replaced: the delivery goes through', async (t) => {
  // The second request, on the connection the first left open, finds it closed: a server timing
  // idle connections out.
  const receiver = await startReceiver((_request, index) => (index === 1 ? 'drop' : { status: 200 }));
  const sender = httpWebhookSender({ allowPrivate: true });
  try {
    t.true((await sender.send(request(`${receiver.url}/hook`, 'evt_1'))).success);
    const second = await sender.send(request(`${receiver.url}/hook`, 'evt_2'));
    t.true(second.success, second.error ?? '');
    t.is(second.status_code, 200);
    t.deepEqual(
      receiver.requests.map((r) => JSON.parse(r.rawBody).id),
      ['evt_1', 'evt_2', 'evt_2'],
      'sent once more, on a new connection',
    );
    t.is(receiver.connections(), 2);
  } finally {
    await receiver.close();
  }
});

test('a new connection reset before any answer is a failed attempt, not sent again', async (t) => {
  const receiver = await startReceiver(() => 'drop');
  const sender = httpWebhookSender({ allowPrivate: true });
  try {
    const outcome = await sender.send(request(`${receiver.url}/hook`, 'evt_1'));
    t.false(outcome.success);
    t.is(outcome.status_code, null);
    t.regex(outcome.error ?? '', /connection reset|socket hang up/);
    t.is(receiver.requests.length, 1, 'the schedule retries it, not the sender');
  } finally {
    await receiver.close();
  }
});
