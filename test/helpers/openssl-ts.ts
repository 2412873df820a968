import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The external oracle: `openssl ts -verify -digest <hex> -in token.der -token_in -CAfile ca.pem`.
 * OK only when openssl exits 0 and says "Verification: OK".
 */
export async function opensslVerifyToken(
  token: Buffer,
  digestHex: string,
  caPem: string,
): Promise<{ ok: boolean; output: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ts-verify-'));
  try {
    await writeFile(path.join(dir, 'token.der'), token);
    await writeFile(path.join(dir, 'ca.pem'), caPem);
    const args = ['ts', '-verify', '-digest', digestHex, '-in', 'token.der', '-token_in', '-CAfile', 'ca.pem'];
    const out = await run('openssl', args, { cwd: dir }).catch((err: { stdout?: string; stderr?: string }) => ({
      stdout: err.stdout ?? '',
      stderr: err.stderr ?? 'failed',
      failed: true,
    }));
    const output = `${out.stdout}${out.stderr}`;
    return { ok: !('failed' in out) && /Verification: OK/.test(out.stdout), output };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** `openssl ts -reply -in token.der -token_in -text`: the token as openssl reads it. */
export async function opensslTokenText(token: Buffer): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ts-text-'));
  try {
    await writeFile(path.join(dir, 'token.der'), token);
    const { stdout } = await run('openssl', ['ts', '-reply', '-in', 'token.der', '-token_in', '-text'], { cwd: dir });
    return stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A copy of a token with one byte of its signature flipped (the signature is the token's last field). */
export function flipSignatureByte(token: Buffer): Buffer {
  const copy = Buffer.from(token);
  copy[copy.length - 1] ^= 0x01;
  return copy;
}
