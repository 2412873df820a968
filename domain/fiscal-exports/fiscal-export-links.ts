import { type LinkCredentialClaims, linkCredentialOf, openToken, signToken } from '../auth/index.js';
import { AppError } from '../shared/app-error.js';
import type { Environment } from '../shared/caller.js';
import type { OperationContext } from '../shared/operation.js';
import { publicBaseUrlOf } from '../users/index.js';

/** Download links are valid 15 minutes (spec "Limits"), as the invoice links are. */
export const FISCAL_EXPORT_LINK_TTL_SECONDS = 15 * 60;
const PURPOSE = 'fiscal-export';

/**
 * What a fiscal export link names, signed: the export and its parameters, the tenant and the
 * environment it is for, the sub-tenant the asking key was bound to, and the credential that asked.
 */
export interface FiscalExportClaims extends Record<string, unknown>, LinkCredentialClaims {
  export: 'fec' | 'forensic';
  tenant_id: string;
  environment: Environment;
  bound_sub_tenant_id: string | null;
  params: Record<string, unknown>;
}

const signing = (ctx: OperationContext, now: Date) => ({ key: ctx.deps.config.appKey, purpose: PURPOSE, now });

export function signFiscalExportLink(
  ctx: OperationContext,
  claims: Omit<FiscalExportClaims, 'cred'>,
): { url: string; expires_at: string } {
  const now = ctx.clock.now();
  const token = signToken(
    signing(ctx, now),
    { ...claims, ...linkCredentialOf(ctx.caller) },
    FISCAL_EXPORT_LINK_TTL_SECONDS,
  );
  const expiresAt = new Date((Math.floor(now.getTime() / 1000) + FISCAL_EXPORT_LINK_TTL_SECONDS) * 1000);
  return {
    url: `${publicBaseUrlOf(ctx.deps.config)}/api/v1/files/fiscal/${token}`,
    expires_at: expiresAt.toISOString(),
  };
}

/** The claims of a link: 403 when altered or not ours, 410 once its 15 minutes are over. */
export function openFiscalExportLink(ctx: OperationContext, token: string): FiscalExportClaims {
  const opened = openToken<FiscalExportClaims>(signing(ctx, ctx.clock.now()), token);
  const claims = opened?.claims;
  if (
    !claims ||
    (claims.export !== 'fec' && claims.export !== 'forensic') ||
    typeof claims.tenant_id !== 'string' ||
    (claims.environment !== 'sandbox' && claims.environment !== 'production') ||
    typeof claims.params !== 'object' ||
    claims.params === null
  ) {
    throw new AppError('DOWNLOAD_LINK_INVALID', 'This download link is not valid. Ask the API for a new one.');
  }
  if (opened.expired) {
    throw new AppError(
      'DOWNLOAD_LINK_EXPIRED',
      `This download link expired at ${new Date(claims.exp * 1000).toISOString()} (links last 15 minutes). Ask for a new one.`,
    );
  }
  return claims;
}
