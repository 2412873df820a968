import { AppError } from '../../domain/shared/app-error.js';
import {
  getSigningDocument,
  refuseSignature,
  sendSigningCode,
  signSignature,
  verifySigningCode,
} from '../../domain/signatures/operations/index.js';
import type { RouteSpec } from '../http/route-spec.js';

/** 403: a call from another site, or signing before a code was verified. */
const page = { tag: 'Signing page', auth: ['none'], envelope: 'raw', errors: [403] } as const;
const BY_TOKEN = '/sign/{token}';

/**
 * The JSON calls of the simulator's signing page (api/pages/signing-page.router.ts): the token in the
 * path is the signer's permission, and signing-page-guard.ts refuses cross-site calls. Code requests
 * and checks count against the per-address sign-in budget (10 a minute): a code cannot be guessed.
 */
export const signingPageRoutes: RouteSpec[] = [
  { ...page, method: 'get', path: `${BY_TOKEN}/document`, operation: getSigningDocument, file: ['application/pdf'] },
  { ...page, method: 'post', path: `${BY_TOKEN}/otp`, operation: sendSigningCode, rateLimit: 'credentials' },
  {
    ...page,
    method: 'post',
    path: `${BY_TOKEN}/otp/verify`,
    operation: verifySigningCode,
    rateLimit: 'credentials',
    // A wrong code is counted by the operation, which therefore commits; the answer is still a 422.
    respond: (_ctx, output) => {
      const step = output as { message: string; verified?: boolean };
      if (!step.verified) throw AppError.validation({ code: [step.message] }, step.message);
      return output;
    },
  },
  // A drawn signature is a PNG data URL: a canvas of a few hundred pixels is well under 2 MB.
  { ...page, method: 'post', path: `${BY_TOKEN}/sign`, operation: signSignature, bodyLimit: '3mb' },
  { ...page, method: 'post', path: `${BY_TOKEN}/refuse`, operation: refuseSignature },
];
