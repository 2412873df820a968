import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

/** A code is valid 10 minutes; 5 wrong attempts lock it (a new one must be asked for). */
export const CODE_TTL_MS = 10 * 60 * 1000;
export const MAX_CODE_ATTEMPTS = 5;
/** After a code is verified the signer has this long to sign or refuse. */
export const VERIFIED_TTL_MS = 30 * 60 * 1000;
/** The sandbox's fixed code: nothing is sent. */
export const SANDBOX_CODE = '000000';

export const codeHash = (code: string): string => createHash('sha256').update(code).digest('hex');

/** A fresh 6-digit code (sandbox: always 000000) and what the signer row keeps of it. */
export function newSigningCode(sandbox: boolean, now: Date) {
  const code = sandbox ? SANDBOX_CODE : String(randomInt(0, 1_000_000)).padStart(6, '0');
  return { code, hash: codeHash(code), expiresAt: new Date(now.getTime() + CODE_TTL_MS) };
}

export interface StoredCode {
  otp_hash: string | null;
  otp_expires_at: Date | null;
  otp_attempts: number;
}

export type CodeCheck =
  | { ok: true }
  | { ok: false; reason: 'none' | 'expired' | 'locked' }
  | { ok: false; reason: 'wrong'; attemptsLeft: number };

/** Checks a code against the stored one: the hash compared in constant time, the deadline, the attempts. */
export function checkSigningCode(stored: StoredCode, code: string, now: Date): CodeCheck {
  if (!stored.otp_hash || !stored.otp_expires_at) return { ok: false, reason: 'none' };
  if (stored.otp_attempts >= MAX_CODE_ATTEMPTS) return { ok: false, reason: 'locked' };
  if (stored.otp_expires_at.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
  const match = timingSafeEqual(Buffer.from(codeHash(code), 'hex'), Buffer.from(stored.otp_hash, 'hex'));
  if (match) return { ok: true };
  return { ok: false, reason: 'wrong', attemptsLeft: Math.max(0, MAX_CODE_ATTEMPTS - stored.otp_attempts - 1) };
}
