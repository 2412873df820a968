import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { nock } from './net.js';

/** The test TSA beside the checkout (../shared/tsa/local-tsa.sh, openssl ts); LOCAL_TSA overrides. */
export const LOCAL_TSA = process.env.LOCAL_TSA ?? path.resolve('..', 'shared', 'tsa', 'local-tsa.sh');

/** A local test TSA: its own directory (CA, TSA certificate and key) and its CA certificate. */
export interface LocalTsa {
  dir: string;
  caPem: string;
  /** Feeds a DER TimeStampReq to local-tsa.sh and returns its DER TimeStampResp. */
  reply(request: Buffer): Promise<Buffer>;
  remove(): Promise<void>;
}

/** Makes a fresh TSA in a temp directory: RSA 2048 keys by default, `ec` for P-256 (TSA_KEY_ALG). */
export async function startLocalTsa(keyAlg: 'rsa' | 'ec' = 'rsa'): Promise<LocalTsa> {
  const dir = await mkdtemp(path.join(tmpdir(), `local-tsa-${keyAlg}-`));
  const env = { ...process.env, TSA_DIR: dir, TSA_KEY_ALG: keyAlg };
  await promisify(execFile)(LOCAL_TSA, ['init'], { env });
  return {
    dir,
    caPem: await readFile(path.join(dir, 'ca.pem'), 'utf8'),
    reply: (request) => replyFrom(env, request),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

function replyFrom(env: NodeJS.ProcessEnv, request: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(LOCAL_TSA, [], { env });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => {
      err += c;
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`local-tsa: ${err}`))));
    child.stdin.end(request);
  });
}

/**
 * One call to `${origin}/tsr` answered by a local TSA through nock; `rewrite` may swap the request
 * first (to forge a wrong answer).
 */
export function tsaAnswers(origin: string, tsa: LocalTsa, rewrite: (request: Buffer) => Buffer = (r) => r) {
  return nock(origin)
    .post('/tsr')
    .matchHeader('content-type', 'application/timestamp-query')
    .reply(async (request: Request) => {
      const reply = await tsa.reply(rewrite(Buffer.from(await request.arrayBuffer())));
      return [200, reply, { 'Content-Type': 'application/timestamp-reply' }];
    });
}

/** The settings of a test app that anchors through `tsa`, reached (through nock) at `origin`/tsr. */
export const tsaAppEnv = (origin: string, tsa: LocalTsa): Record<string, string> => ({
  RATE_LIMIT_SCALE: '0',
  TSA_URL: `${origin}/tsr`,
  TSA_CA_CERT: path.join(tsa.dir, 'ca.pem'),
  TSA_TIMEOUT_MS: '2000',
});
