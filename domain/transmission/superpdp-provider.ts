import { AppError } from '../shared/app-error.js';
import type {
  EInvoicingProvider,
  IncomingSummary,
  Page,
  ProviderAccountRef,
  ProviderEvent,
  StatusToSend,
  UploadRequest,
  UploadResult,
} from './einvoicing-provider.js';
import {
  errorMessageOf,
  fetchWithTimeout,
  jsonBody,
  providerUnavailable,
  throwIfUnavailable,
} from './superpdp-http.js';
import { type SuperPdpEvent, statusBody, toProviderEvent } from './superpdp-mapping.js';
import type { SuperPdpTokens } from './superpdp-tokens.js';

const API = '/v1.beta';
/** How far back `findUploaded` looks: the most recent outgoing invoices, a few pages of 100. */
const FIND_PAGES = 3;

interface InvoiceObject {
  id: number | string;
  created_at: string;
  external_id?: string | null;
  events?: SuperPdpEvent[];
}

/**
 * The SuperPDP adapter (provider-apis.md §1): bearer calls with one renewal on 401, raw-file upload,
 * id cursors on events and inbox, lifecycle statuses sent back. 403 (company under review), 429,
 * 5xx and network errors are PROVIDER_UNAVAILABLE (retried); a 400 on upload is a refusal result.
 */
export class SuperPdpProvider implements EInvoicingProvider {
  constructor(
    private readonly settings: { baseUrl: string; timeoutMs: number },
    private readonly tokens: SuperPdpTokens,
  ) {}

  /** One authenticated call; a 401 renews the token once and retries once (SP-WEM does the same). */
  private async call(account: ProviderAccountRef, path: string, init: RequestInit = {}): Promise<Response> {
    const send = (token: string) =>
      fetchWithTimeout(
        `${this.settings.baseUrl}${path}`,
        { ...init, headers: { accept: 'application/json', ...init.headers, authorization: `Bearer ${token}` } },
        this.settings.timeoutMs,
      );
    const token = await this.tokens.accessToken(account);
    let res = await send(token);
    if (res.status === 401) {
      await res.body?.cancel();
      res = await send(await this.tokens.accessToken(account, token));
      if (res.status === 401)
        throw providerUnavailable(`SuperPDP refused a renewed token: ${await errorMessageOf(res)}`);
    }
    return res;
  }

  private async json<T>(account: ProviderAccountRef, path: string, what: string, init?: RequestInit): Promise<T> {
    const res = await this.call(account, path, init);
    await throwIfUnavailable(res, what);
    if (!res.ok) {
      throw new AppError('PROVIDER_REFUSED', `SuperPDP refused ${what} (${res.status}): ${await errorMessageOf(res)}`, {
        retryable: false,
      });
    }
    return jsonBody<T>(res, what);
  }

  async upload(account: ProviderAccountRef, request: UploadRequest): Promise<UploadResult> {
    const query = new URLSearchParams({ external_id: request.externalId, processing_rule: request.processingRule });
    const res = await this.call(account, `${API}/invoices?${query}`, {
      method: 'POST',
      headers: { 'content-type': request.file.contentType },
      body: new Uint8Array(request.file.bytes),
    });
    await throwIfUnavailable(res, 'the upload');
    if (res.status >= 400 && res.status < 500) {
      return { outcome: 'refused', httpStatus: res.status, message: await errorMessageOf(res) };
    }
    const invoice = await jsonBody<InvoiceObject>(res, 'the upload');
    return { outcome: 'accepted', pdpId: String(invoice.id), events: (invoice.events ?? []).map(toProviderEvent) };
  }

  async findUploaded(account: ProviderAccountRef, externalId: string): Promise<string | null> {
    let before: string | null = null;
    for (let page = 0; page < FIND_PAGES; page++) {
      const query = new URLSearchParams({ direction: 'out', order: 'desc', limit: '100' });
      if (before) query.set('ending_before_id', before);
      const body = await this.json<{ data: InvoiceObject[]; has_before?: boolean; has_after?: boolean }>(
        account,
        `${API}/invoices?${query}`,
        'the invoice list',
      );
      const found = body.data.find((invoice) => invoice.external_id === externalId);
      if (found) return String(found.id);
      if (body.data.length < 100) return null;
      before = String(body.data[body.data.length - 1].id);
    }
    return null;
  }

  async listEvents(account: ProviderAccountRef, afterId: string | null, limit: number): Promise<Page<ProviderEvent>> {
    const query = new URLSearchParams({ limit: String(limit) });
    if (afterId) query.set('starting_after_id', afterId);
    const body = await this.json<{ data: SuperPdpEvent[]; has_after: boolean }>(
      account,
      `${API}/invoice_events?${query}`,
      'the event list',
    );
    return { items: body.data.map(toProviderEvent), hasAfter: Boolean(body.has_after) };
  }

  async listIncoming(
    account: ProviderAccountRef,
    afterId: string | null,
    limit: number,
  ): Promise<Page<IncomingSummary>> {
    const query = new URLSearchParams({ direction: 'in', order: 'asc', limit: String(limit) });
    if (afterId) query.set('starting_after_id', afterId);
    const body = await this.json<{ data: InvoiceObject[]; has_after: boolean }>(
      account,
      `${API}/invoices?${query}`,
      'the inbox',
    );
    return {
      items: body.data.map((invoice) => ({ pdpId: String(invoice.id), createdAt: invoice.created_at })),
      hasAfter: Boolean(body.has_after),
    };
  }

  async downloadOriginal(account: ProviderAccountRef, pdpId: string): Promise<{ bytes: Buffer; contentType: string }> {
    const res = await this.call(account, `${API}/invoices/${encodeURIComponent(pdpId)}?format=original`, {
      headers: { accept: 'application/pdf, application/xml' },
    });
    await throwIfUnavailable(res, 'the download');
    if (!res.ok)
      throw providerUnavailable(`SuperPDP answered ${res.status} to the download: ${await errorMessageOf(res)}`);
    const bytes = Buffer.from(await res.arrayBuffer());
    // Sniffed, not trusted: the original is a PDF (Factur-X) or XML (UBL, CII).
    const contentType = bytes.subarray(0, 5).toString('latin1') === '%PDF-' ? 'application/pdf' : 'application/xml';
    return { bytes, contentType };
  }

  async sendStatus(account: ProviderAccountRef, status: StatusToSend): Promise<ProviderEvent> {
    const event = await this.json<SuperPdpEvent>(account, `${API}/invoice_events`, 'the status', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(statusBody(status)),
    });
    return toProviderEvent(event);
  }
}
