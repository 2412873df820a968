import { mkdtemp, readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { LogMailer, MAIL_LOG_SEPARATOR } from '../../domain/mail/log-mailer.js';
import { mailerFor } from '../../domain/mail/mailer-for.js';
import { passwordResetMail } from '../../domain/mail/password-reset-mail.js';
import { SmtpMailer } from '../../domain/mail/smtp-mailer.js';
import { systemClock } from '../../domain/shared/clock.js';
import { loadConfig } from '../../domain/shared/config.js';

const fixedClock = { now: () => new Date('2026-11-22T10:00:00Z') };

test('LogMailer appends readable messages (From, To, Subject, Date, body), creating the folder', async (t) => {
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'mail-')), 'nested', 'mail.log');
  const mailer = new LogMailer(file, 'Service <no-reply@example.com>', fixedClock);
  await mailer.send({ to: 'a@example.com', subject: 'First', text: 'Hello A\n' });
  await mailer.send({ to: 'b@example.com', subject: 'Second', text: 'Hello B' });
  t.is(
    await readFile(file, 'utf8'),
    [
      'From: Service <no-reply@example.com>',
      'To: a@example.com',
      'Subject: First',
      'Date: Sun, 22 Nov 2026 10:00:00 GMT',
      '',
      'Hello A',
      '',
      MAIL_LOG_SEPARATOR,
      'From: Service <no-reply@example.com>',
      'To: b@example.com',
      'Subject: Second',
      'Date: Sun, 22 Nov 2026 10:00:00 GMT',
      '',
      'Hello B',
      '',
      MAIL_LOG_SEPARATOR,
      '',
    ].join('\n'),
  );
});

test('mailerFor: the log when SMTP_URL is empty (DATA_DIR/mail.log by default), SMTP otherwise', (t) => {
  const local = mailerFor(loadConfig({ DATA_DIR: '/tmp/einvoice-data' }), systemClock);
  t.true(local instanceof LogMailer);
  t.is((local as LogMailer).file, '/tmp/einvoice-data/mail.log');
  t.true(mailerFor(loadConfig({ SMTP_URL: 'smtp://127.0.0.1:2525' }), systemClock) instanceof SmtpMailer);
});

test('the reset mail links to /reset-password with the token and the e-mail, URL-encoded', (t) => {
  const mail = passwordResetMail({
    to: 'jane+test@example.com',
    firstName: 'Jane',
    baseUrl: 'https://app.example.com',
    token: 'abc123',
    expiresAt: '2026-11-22T11:00:00.000Z',
  });
  t.is(mail.subject, 'Reset your password');
  t.true(mail.text.startsWith('Hello Jane,'));
  t.true(mail.text.includes('https://app.example.com/reset-password?token=abc123&email=jane%2Btest%40example.com'));
});

/** A minimal SMTP server (RFC 5321 happy path) that records what it received. */
async function fakeSmtp(): Promise<{ port: number; received: string[]; close(): Promise<void> }> {
  const received: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    let buffer = '';
    let inData = false;
    socket.write('220 fake ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (let i = buffer.indexOf('\r\n'); i !== -1; i = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            socket.write('250 queued\r\n');
          } else received.push(line);
          continue;
        }
        received.push(line);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 fake\r\n');
        else if (verb === 'DATA') {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    received,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

test('SmtpMailer sends through SMTP_URL from MAIL_FROM', async (t) => {
  const smtp = await fakeSmtp();
  try {
    const mailer = new SmtpMailer(`smtp://127.0.0.1:${smtp.port}?ignoreTLS=true`, 'Service <no-reply@example.com>');
    await mailer.send({ to: 'jane@example.com', subject: 'Reset your password', text: 'The link.' });
    const transcript = smtp.received.join('\n');
    t.regex(transcript, /^MAIL FROM:<no-reply@example\.com>/m);
    t.regex(transcript, /^RCPT TO:<jane@example\.com>/m);
    t.regex(transcript, /^Subject: Reset your password$/m);
    t.regex(transcript, /^The link\.$/m);
  } finally {
    await smtp.close();
  }
});

test('SmtpMailer: a relay that refuses makes send throw (the job retries)', async (t) => {
  const mailer = new SmtpMailer('smtp://127.0.0.1:1?ignoreTLS=true', 'Service <no-reply@example.com>');
  await t.throwsAsync(mailer.send({ to: 'jane@example.com', subject: 'x', text: 'y' }));
});
