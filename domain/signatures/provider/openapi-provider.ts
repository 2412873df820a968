import { AppError } from '../../shared/app-error.js';
import type { OpenapiAccount } from './openapi-account.js';
import { dateOf } from './openapi-account.js';
import { assertOk, jsonOf, pdfOf, providerUnavailable } from './openapi-http.js';
import type {
  ProviderCreateInput,
  ProviderSignature,
  ProviderSignerState,
  ProviderSummary,
  SignatureProvider,
} from './signature-provider.js';

/** The longest SMS text Openapi sends, its code included (provider-apis.md §2.3). */
const SMS_MESSAGE_MAX = 160;

/**
 * Openapi eSignature, EU-SES (provider-apis.md §2.3–2.4), over HTTP with the configured account.
 */
export class OpenapiSignatureProvider implements SignatureProvider {
  constructor(private readonly account: OpenapiAccount) {}

  async create(input: ProviderCreateInput): Promise<ProviderSignature> {
    const body = {
      inputDocuments: [{ sourceType: 'base64', payload: input.document.toString('base64') }],
      signers: input.signers.map((s) => ({
        name: s.name,
        surname: s.surname,
        ...(s.email ? { email: s.email } : {}),
        ...(s.mobile ? { mobile: s.mobile } : {}),
        authentication: s.authentication,
        // An SMS carries at most 160 characters: a longer message is left to the provider's default.
        ...(s.message && (!s.authentication.includes('sms') || s.message.length <= SMS_MESSAGE_MAX)
          ? { message: s.message }
          : {}),
        signatures: s.signatures.map((p) => ({ page: p.page, x: String(Math.round(p.x)), y: String(Math.round(p.y)) })),
      })),
      callback: { url: input.callbackUrl },
      options: {
        signatureMode: input.signatureMode,
        timezone: 'Europe/Paris',
        userEditableData: { name: false, mobile: false, email: false },
        ui: {
          ...(input.completeUrl ? { completeUrl: input.completeUrl } : {}),
          ...(input.cancelUrl ? { cancelUrl: input.cancelUrl } : {}),
          ...(input.iframeAncestors.length ? { iframeAncestors: input.iframeAncestors } : {}),
        },
      },
    };
    // Not retried within the call: a request sent again after a timeout, a cut connection or a 5xx
    // may be a second one at the provider. The job's retry looks the first one up before creating.
    const answer = await this.account.esignatureCall(
      'POST',
      '/EU-SES',
      { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
      { once: true },
    );
    assertOk(answer, 'the signature request');
    return signatureOf(jsonOf(answer, 'the signature request'));
  }

  async detail(id: string): Promise<ProviderSignature> {
    const answer = await this.account.esignatureCall('GET', `/signatures/${encodeURIComponent(id)}/detail`);
    if (answer.status === 404) throw new AppError('NOT_FOUND', `Openapi has no signature request ${id}.`);
    assertOk(answer, 'the signature detail');
    return signatureOf(jsonOf(answer, 'the signature detail'));
  }

  async listSince(since: Date): Promise<ProviderSummary[]> {
    const answer = await this.account.esignatureCall('GET', '/signatures?certificateType=EU-SES&skip=0&limit=100');
    assertOk(answer, 'the signature list');
    const list = jsonOf(answer, 'the signature list');
    if (!Array.isArray(list)) throw providerUnavailable("Openapi's signature list is not a list.");
    return list
      .map((raw) => {
        const r = (raw ?? {}) as Record<string, unknown>;
        return {
          id: String(r.id ?? ''),
          state: String(r.state ?? ''),
          createdAt: dateOf(r.createdAt)?.toISOString() ?? null,
        };
      })
      .filter((r) => r.id && (!r.createdAt || new Date(r.createdAt).getTime() >= since.getTime()))
      .sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''));
  }

  async signedDocument(id: string): Promise<Buffer> {
    const answer = await this.account.esignatureCall('GET', `/signatures/${encodeURIComponent(id)}/signedDocument`, {
      headers: { accept: 'application/pdf' },
    });
    assertOk(answer, 'the signed document');
    return pdfOf(answer, 'the signed document');
  }

  async auditPdf(id: string): Promise<Buffer> {
    const answer = await this.account.esignatureCall('GET', `/signatures/${encodeURIComponent(id)}/audit`, {
      headers: { accept: 'application/pdf' },
    });
    assertOk(answer, 'the audit trail');
    return pdfOf(answer, 'the audit trail');
  }

  async remove(id: string): Promise<void> {
    const answer = await this.account.esignatureCall('DELETE', `/signatures/${encodeURIComponent(id)}`);
    if (answer.status === 404) return;
    assertOk(answer, 'the deletion');
  }
}

const SIGNER_STATES: Record<string, ProviderSignerState> = {
  NEW: 'pending',
  WAIT: 'pending',
  PENDING: 'pending',
  DONE: 'signed',
  SIGNED: 'signed',
  REFUSED: 'refused',
  REJECTED: 'refused',
};

const text = (value: unknown, max = 2000): string | null =>
  typeof value === 'string' && value ? value.slice(0, max) : typeof value === 'number' ? String(value) : null;

/** A signature object of the provider (create answer or detail), read field by field, nothing trusted. */
export function signatureOf(raw: unknown): ProviderSignature {
  const r = (raw ?? {}) as Record<string, unknown>;
  const id = text(r.id, 255);
  if (!id) throw providerUnavailable("Openapi's signature object has no id.");
  const signers = Array.isArray(r.signers) ? r.signers : [];
  const errorMessage = text(r.errorMessage, 500);
  return {
    id,
    state: (text(r.state, 40) ?? '').toUpperCase(),
    signers: signers.map((raw) => {
      const s = (raw ?? {}) as Record<string, unknown>;
      const state = (text(s.state, 40) ?? 'NEW').toUpperCase();
      const url = text(s.url, 2000);
      return {
        id: text(s.id, 255) ?? '',
        email: text(s.email, 320),
        mobile: text(s.mobile, 40),
        state: SIGNER_STATES[state] ?? 'pending',
        url: url && /^https:\/\//i.test(url) ? url : null,
        signedAt: dateOf(s.signedAt ?? s.updatedAt)?.toISOString() ?? null,
        reason: text(s.refuseReason ?? s.reason, 1000),
      };
    }),
    error:
      r.errorNumber != null || errorMessage
        ? { number: typeof r.errorNumber === 'number' ? r.errorNumber : null, message: errorMessage ?? 'error' }
        : null,
    createdAt: dateOf(r.createdAt)?.toISOString() ?? null,
  };
}
