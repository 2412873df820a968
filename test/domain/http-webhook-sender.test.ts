import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { httpWebhookSender } from '../../domain/webhooks/http-webhook-sender.js';
import type { WebhookRequest } from '../../domain/webhooks/webhook-sender.js';

// No nock: real connections to receivers on 127.0.0.1, counted by the receiver.

interface CountingReceiver {
  url: string;
  connections: () => number;
  requests: string[];
  close: () => Promise<void>;
}

/**
 * A receiver that counts its TCP connections and answers 200, except where `drop` says: then it
 * closes the connection without answering (given the request's position on its connection).
 */
async function countingReceiver(drop: (nthOnConnection: number) => boolean = () => false): Promise<CountingReceiver> {
  let connections = 0;
  const requests: string[] = [];
  const perSocket = new WeakMap<object, number>();
  const server = http.createServer((req, res) => {
    const nth = (perSocket.get(req.socket) ?? 0) + 1;
    perSocket.set(req.socket, nth);
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    req.on('end', () => {
      requests.push(body);
      if (drop(nth)) req.socket.destroy();
      else res.end('ok');
    });
  });
  server.keepAliveTimeout = 30_000;
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    connections: () => connections,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const request = (url: string, id: string): WebhookRequest => ({
  url,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ id }),
  timeout_ms: 3000,
});

test('deliveries to the same receiver share one kept connection', async (t) => {
  const receiver = await countingReceiver();
  const sender = httpWebhookSender({ allowPrivate: true });
  try {
    for (const id of ['evt_1', 'evt_2', 'evt_3', 'evt_4', 'evt_5']) {
      const outcome = await sender.send(request(receiver.url, id));
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
  // The second request on any connection finds it closed: a server timing idle connections out.
  const receiver = await countingReceiver((nth) => nth === 2);
  const sender = httpWebhookSender({ allowPrivate: true });
  try {
    t.true((await sender.send(request(receiver.url, 'evt_1'))).success);
    const second = await sender.send(request(receiver.url, 'evt_2'));
    t.true(second.success, second.error ?? '');
    t.is(second.status_code, 200);
    t.deepEqual(
      receiver.requests.map((body) => JSON.parse(body).id),
      ['evt_1', 'evt_2', 'evt_2'],
      'sent once more, on a new connection',
    );
    t.is(receiver.connections(), 2);
  } finally {
    await receiver.close();
  }
});

test('a new connection reset before any answer is a failed attempt, not sent again', async (t) => {
  const receiver = await countingReceiver(() => true);
  const sender = httpWebhookSender({ allowPrivate: true });
  try {
    const outcome = await sender.send(request(receiver.url, 'evt_1'));
    t.false(outcome.success);
    t.is(outcome.status_code, null);
    t.regex(outcome.error ?? '', /connection reset|socket hang up/);
    t.is(receiver.requests.length, 1, 'the schedule retries it, not the sender');
  } finally {
    await receiver.close();
  }
});
