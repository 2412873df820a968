import { AppError } from '../shared/app-error.js';
import type { OperationContext } from '../shared/operation.js';
import { eventData } from './issue-signature.js';
import { decodePng, pngFromDataUrl } from './pdf/png-image.js';
import { auditSignature, SIGNER_ACTOR } from './signature-audit.js';
import { produceSignedFiles } from './signature-completion.js';
import type { SignatureRequestRow } from './signature-row.js';
import { fullNameOf } from './signature-view.js';
import { checkSigningCode, MAX_CODE_ATTEMPTS, newSigningCode, VERIFIED_TTL_MS } from './signing-code.js';
import {
  finishSignatureRequest,
  openSigningSession,
  recordSigningEvent,
  type SigningSession,
  type SigningSigner,
  updateSigner,
} from './signing-store.js';

export interface SigningStepResult {
  message: string;
  status: string;
  redirect_url?: string | null;
  attempts_left?: number;
  verified?: boolean;
}

/**
 * The signing page is the simulator's: it serves sandbox requests always, production requests only
 * while the simulator is the signature provider (ENABLE_SIMULATORS), never a request Openapi carries.
 * Otherwise the token is unknown.
 */
export async function openServedSession(
  ctx: OperationContext,
  token: string,
  options: { forUpdate?: boolean } = {},
): Promise<SigningSession> {
  const session = await openSigningSession(ctx.tx, token, options);
  const { request } = session;
  if (request.provider === 'openapi' || (request.environment === 'production' && !ctx.deps.config.enableSimulators)) {
    throw new AppError('NOT_FOUND', 'This signing link is not valid.');
  }
  return session;
}

/** The request's state as the page shows it: `expired` once past its deadline even before the job runs. */
export const pageStatusOf = (r: SignatureRequestRow, now: Date): string =>
  r.status === 'pending' && r.expires_at.getTime() <= now.getTime() ? 'expired' : r.status;

/** 422 unless the request is pending and the signer has not answered yet. */
function assertCanAnswer(session: SigningSession, now: Date): void {
  const status = pageStatusOf(session.request, now);
  if (status !== 'pending') {
    throw new AppError('SIGNATURE_NOT_PENDING', `This signature request is ${status}: it can no longer be signed.`, {
      body: { status },
    });
  }
  if (session.signer.status !== 'pending') {
    throw new AppError('SIGNATURE_NOT_PENDING', `You have already ${session.signer.status} this document.`, {
      body: { status: session.signer.status },
    });
  }
}

const context = (ctx: OperationContext) => ({ ip: ctx.caller.ip ?? null, userAgent: ctx.caller.userAgent ?? null });

/**
 * Asks for a new one-time code. In the sandbox the code is 000000, set here, and nothing is sent.
 * Otherwise the `send-signing-code` job makes a 6-digit code and sends it (issueSigningCode), so the
 * mail or SMS goes out from a worker, outside any transaction; any previous code stops working then.
 */
export async function requestSigningCode(ctx: OperationContext, token: string): Promise<SigningStepResult> {
  const session = await openServedSession(ctx, token, { forUpdate: true });
  const now = ctx.clock.now();
  assertCanAnswer(session, now);
  const { request: r, signer } = session;
  if (r.environment === 'sandbox') {
    const fresh = newSigningCode(true, now);
    await updateSigner(
      ctx.tx,
      signer.id,
      { otp_hash: fresh.hash, otp_expires_at: fresh.expiresAt, otp_attempts: 0, otp_verified_at: null },
      now,
    );
    await recordSigningEvent(
      ctx.tx,
      r,
      { action: 'otp_sent', signerId: signer.id, detail: 'sandbox: 000000, nothing sent', ...context(ctx) },
      now,
    );
    return { message: 'Sandbox: no code is sent, enter 000000.', status: r.status };
  }
  const channels = channelsOf(signer);
  await recordSigningEvent(
    ctx.tx,
    r,
    { action: 'otp_requested', signerId: signer.id, detail: channels.join(', '), ...context(ctx) },
    now,
  );
  await ctx.jobs.send('send-signing-code', { tenantId: r.tenant_id, signerId: signer.id });
  return { message: `A code is on its way by ${channels.join(' and ')}. It is valid 10 minutes.`, status: r.status };
}

/** A code to send, as the send-signing-code job gets it (never stored in the job's output). */
export interface SigningCodeMessage {
  sent: boolean;
  email: string | null;
  phone: string | null;
  channels: ('email' | 'sms')[];
  subject: string;
  text: string;
}

/**
 * Makes a fresh 6-digit code for a pending signer of a pending production request (kept as its
 * hash, valid 10 minutes) and returns the message carrying it; `sent: false` when the signer or
 * the request has answered meanwhile.
 */
export async function issueSigningCode(ctx: OperationContext, signerId: string): Promise<SigningCodeMessage> {
  const none: SigningCodeMessage = { sent: false, email: null, phone: null, channels: [], subject: '', text: '' };
  const signer = await ctx.tx('signature_signers').where({ id: signerId }).first<SigningSigner | undefined>('*');
  if (!signer) return none;
  const r = await ctx
    .tx('signature_requests')
    .where({ id: signer.signature_request_id })
    .forUpdate()
    .first<SignatureRequestRow>('*');
  const now = ctx.clock.now();
  if (pageStatusOf(r, now) !== 'pending' || signer.status !== 'pending' || r.environment === 'sandbox') return none;
  const fresh = newSigningCode(false, now);
  await updateSigner(
    ctx.tx,
    signer.id,
    { otp_hash: fresh.hash, otp_expires_at: fresh.expiresAt, otp_attempts: 0, otp_verified_at: null },
    now,
  );
  const channels = channelsOf(signer);
  await recordSigningEvent(ctx.tx, r, { action: 'otp_sent', signerId: signer.id, detail: channels.join(', ') }, now);
  return {
    sent: true,
    email: signer.email,
    phone: signer.phone,
    channels,
    subject: `Your signing code for "${r.title}"`,
    text: codeMessage(r, signer, fresh.code),
  };
}

const channelsOf = (s: SigningSigner): ('email' | 'sms')[] =>
  s.auth_method === 'both' ? ['email', 'sms'] : s.auth_method === 'sms' ? ['sms'] : ['email'];

function codeMessage(r: SignatureRequestRow, s: SigningSigner, code: string): string {
  const custom = s.message?.includes('{OTP}') ? s.message.replaceAll('{OTP}', code) : null;
  return custom ?? `Hello ${fullNameOf(s)},\n\nYour code to sign "${r.title}" is ${code}. It is valid 10 minutes.\n`;
}

/**
 * Checks the code: a right one marks the signer verified (30 minutes to sign or refuse) and spends
 * the code; a wrong one counts an attempt, the fifth locks the code. Wrong codes are answered
 * without an error here (the attempt must be kept): the route turns `verified: false` into a 422.
 */
export async function verifySigningCode(
  ctx: OperationContext,
  token: string,
  code: string,
): Promise<SigningStepResult> {
  const session = await openServedSession(ctx, token, { forUpdate: true });
  const now = ctx.clock.now();
  assertCanAnswer(session, now);
  const { request: r, signer } = session;
  const check = checkSigningCode(signer, code, now);
  if (check.ok) {
    await updateSigner(ctx.tx, signer.id, { otp_hash: null, otp_expires_at: null, otp_verified_at: now }, now);
    await recordSigningEvent(ctx.tx, r, { action: 'otp_verified', signerId: signer.id, ...context(ctx) }, now);
    return { message: 'Code accepted.', status: r.status, verified: true };
  }
  if (check.reason === 'wrong') {
    await updateSigner(ctx.tx, signer.id, { otp_attempts: signer.otp_attempts + 1 }, now);
    await recordSigningEvent(ctx.tx, r, { action: 'otp_failed', signerId: signer.id, ...context(ctx) }, now);
    return {
      message:
        check.attemptsLeft > 0
          ? `Wrong code: ${check.attemptsLeft} attempt${check.attemptsLeft > 1 ? 's' : ''} left.`
          : `Wrong code: the code is locked after ${MAX_CODE_ATTEMPTS} attempts. Ask for a new one.`,
      status: r.status,
      verified: false,
      attempts_left: check.attemptsLeft,
    };
  }
  const messages = {
    none: 'Ask for a code first.',
    expired: 'This code has expired (codes are valid 10 minutes). Ask for a new one.',
    locked: `This code is locked after ${MAX_CODE_ATTEMPTS} wrong attempts. Ask for a new one.`,
  } as const;
  return { message: messages[check.reason], status: r.status, verified: false, attempts_left: 0 };
}

/** 403 unless the signer verified a code in the last 30 minutes. */
function assertVerified(signer: SigningSigner, now: Date): void {
  if (!signer.otp_verified_at || signer.otp_verified_at.getTime() + VERIFIED_TTL_MS <= now.getTime()) {
    throw new AppError('FORBIDDEN', 'Enter the code you received first.');
  }
}

/** Which signatures the request accepts: `typed`, `drawn` or `both` (the default). */
const modeOf = (r: SignatureRequestRow): string => {
  const mode = r.signature_options?.signature_mode;
  return typeof mode === 'string' ? mode : 'both';
};

/**
 * Signs for a verified signer: the signer becomes `signed` (event `signature.signed`); when it was
 * the last, the request becomes `completed` with its signed PDF and proof file
 * (`signature.completed`).
 */
export async function signAsSigner(
  ctx: OperationContext,
  token: string,
  signature: { typed_name?: string; drawing?: string },
): Promise<SigningStepResult> {
  const session = await openServedSession(ctx, token, { forUpdate: true });
  const now = ctx.clock.now();
  assertCanAnswer(session, now);
  const { request: r, signer, signers } = session;
  assertVerified(signer, now);
  const mode = modeOf(r);
  if (!signature.typed_name && !signature.drawing) {
    throw AppError.validation({ signature: ['type your name or draw your signature'] });
  }
  if (signature.drawing && mode === 'typed')
    throw AppError.validation({ drawing: ['this request takes a typed name'] });
  if (signature.typed_name && !signature.drawing && mode === 'drawn') {
    throw AppError.validation({ typed_name: ['this request takes a drawn signature'] });
  }
  if (signature.drawing) assertDrawable(signature.drawing);
  const typed = signature.drawing ? null : (signature.typed_name?.trim() ?? null);
  const changes = {
    status: 'signed' as const,
    signed_at: now,
    signature_typed: typed,
    signature_image: signature.drawing ?? null,
    otp_verified_at: null,
  };
  await updateSigner(ctx.tx, signer.id, changes, now);
  const kind = signature.drawing ? 'drawn' : 'typed';
  await recordSigningEvent(ctx.tx, r, { action: 'signed', signerId: signer.id, detail: kind, ...context(ctx) }, now);
  await auditSignature(
    ctx,
    r,
    'signature.signed',
    {
      signer_id: signer.id,
      mode: kind,
      user_agent: ctx.caller.userAgent ?? null,
    },
    SIGNER_ACTOR,
  );
  await ctx.events.emit(
    'signature.signed',
    { ...eventData(r, signers.length), signer: signerData({ ...signer, ...changes }) },
    { tenantId: r.tenant_id, environment: r.environment },
  );

  const after = signers.map((s) => (s.id === signer.id ? { ...s, ...changes } : s));
  if (after.some((s) => s.status !== 'signed')) {
    return {
      message: 'Thank you: your signature is recorded.',
      status: r.status,
      redirect_url: r.redirect_complete_url,
    };
  }
  // A small document is signed here in a few milliseconds; a large one by the complete-signature
  // job, so that hashing and signing megabytes does not hold the web process's event loop.
  if (r.document_size > INLINE_COMPLETION_MAX_BYTES) {
    await ctx.jobs.send('complete-signature', { tenantId: r.tenant_id, signatureId: r.id });
    return {
      message: 'Thank you: every signer has signed, the signed document is being prepared.',
      status: r.status,
      redirect_url: r.redirect_complete_url,
    };
  }
  const completed = await completeWhenAllSigned(ctx, r, after);
  return {
    message: 'Thank you: every signer has signed, the document is complete.',
    status: completed?.status ?? r.status,
    redirect_url: r.redirect_complete_url,
  };
}

/** Documents up to this size are signed in the request that completes them; larger ones by a job. */
export const INLINE_COMPLETION_MAX_BYTES = 2 * 1024 * 1024;

/**
 * Completes a locked pending request whose signers have all signed: its signed PDF and proof file,
 * `completed`, the audit entry and `signature.completed`. Null (nothing done) otherwise, so that a
 * retried or late job is harmless.
 */
export async function completeWhenAllSigned(
  ctx: OperationContext,
  r: SignatureRequestRow,
  signers: SigningSigner[],
): Promise<SignatureRequestRow | null> {
  if (r.status !== 'pending' || signers.some((s) => s.status !== 'signed')) return null;
  const now = ctx.clock.now();
  await produceSignedFiles(ctx.tx, r, signers, now);
  const completed = await finishSignatureRequest(ctx.tx, r.id, { status: 'completed' }, now);
  await auditSignature(ctx, r, 'signature.completed', { signers: signers.length }, SIGNER_ACTOR);
  await ctx.events.emit('signature.completed', eventData(completed, signers.length), {
    tenantId: r.tenant_id,
    environment: r.environment,
  });
  return completed;
}

/** The largest drawing kept: a signature pad, not a photograph. */
const MAX_DRAWING_SIDE = 2000;

/** 422 unless the drawing is a PNG the signed PDF can embed (8-bit, not interlaced, as a canvas exports). */
function assertDrawable(drawing: string): void {
  let size: { width: number; height: number };
  try {
    size = decodePng(pngFromDataUrl(drawing));
  } catch (err) {
    throw AppError.validation({ drawing: [`must be a PNG image as a canvas exports it: ${(err as Error).message}`] });
  }
  if (size.width > MAX_DRAWING_SIDE || size.height > MAX_DRAWING_SIDE) {
    throw AppError.validation({ drawing: [`must be at most ${MAX_DRAWING_SIDE} pixels wide and high`] });
  }
}

/** A verified signer refuses: the signer and the request become `refused` with the reason (`signature.refused`). */
export async function refuseAsSigner(ctx: OperationContext, token: string, reason: string): Promise<SigningStepResult> {
  const session = await openServedSession(ctx, token, { forUpdate: true });
  const now = ctx.clock.now();
  assertCanAnswer(session, now);
  const { request: r, signer, signers } = session;
  assertVerified(signer, now);
  const why = reason.trim();
  await updateSigner(
    ctx.tx,
    signer.id,
    { status: 'refused', refused_at: now, refusal_reason: why, otp_verified_at: null },
    now,
  );
  await recordSigningEvent(ctx.tx, r, { action: 'refused', signerId: signer.id, detail: why, ...context(ctx) }, now);
  const refused = await finishSignatureRequest(ctx.tx, r.id, { status: 'refused', reason: why }, now);
  await auditSignature(
    ctx,
    r,
    'signature.refused',
    {
      signer_id: signer.id,
      reason: why,
      user_agent: ctx.caller.userAgent ?? null,
    },
    SIGNER_ACTOR,
  );
  await ctx.events.emit(
    'signature.refused',
    {
      ...eventData(refused, signers.length),
      refusal_reason: why,
      signer: signerData({ ...signer, status: 'refused' }),
    },
    { tenantId: r.tenant_id, environment: r.environment },
  );
  return { message: 'Your refusal is recorded.', status: refused.status, redirect_url: r.redirect_cancel_url };
}

export const signerData = (s: Pick<SigningSigner, 'id' | 'first_name' | 'last_name' | 'status' | 'signed_at'>) => ({
  id: s.id,
  full_name: fullNameOf(s),
  status: s.status,
  signed_at: s.signed_at?.toISOString() ?? null,
});
