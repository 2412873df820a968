import type {
  EInvoicingProvider,
  IncomingSummary,
  ProviderAccountRef,
  ProviderEvent,
  StatusToSend,
} from '../../domain/transmission/einvoicing-provider.js';

/** An inbox and an event stream the tests fill, and a record of the statuses sent; `failSends` makes sendStatus throw. */
export class FakeEInvoicingProvider implements EInvoicingProvider {
  inbox: { pdpId: string; createdAt: string; bytes: Buffer; contentType: string }[] = [];
  sent: { account: ProviderAccountRef; status: StatusToSend }[] = [];
  listCalls: (string | null)[] = [];
  failSends = 0;

  upload(): never {
    throw new Error('not used by incoming invoices');
  }
  findUploaded(): never {
    throw new Error('not used by incoming invoices');
  }
  /** The lifecycle event stream, ids ascending. */
  events: ProviderEvent[] = [];
  async listEvents(_account: ProviderAccountRef, afterId: string | null, limit: number) {
    const rest = this.events.filter((event) => afterId === null || Number(event.id) > Number(afterId));
    return { items: rest.slice(0, limit), hasAfter: rest.length > limit };
  }
  async listIncoming(_account: ProviderAccountRef, afterId: string | null, limit: number) {
    this.listCalls.push(afterId);
    const after = afterId === null ? -1 : Number(afterId);
    const rest = this.inbox.filter((item) => Number(item.pdpId) > after);
    const items: IncomingSummary[] = rest.slice(0, limit).map(({ pdpId, createdAt }) => ({ pdpId, createdAt }));
    return { items, hasAfter: rest.length > limit };
  }
  async downloadOriginal(_account: ProviderAccountRef, pdpId: string) {
    const item = this.inbox.find((i) => i.pdpId === pdpId);
    if (!item) throw new Error(`no invoice ${pdpId}`);
    return { bytes: item.bytes, contentType: item.contentType };
  }
  async sendStatus(account: ProviderAccountRef, status: StatusToSend): Promise<ProviderEvent> {
    if (this.failSends > 0) {
      this.failSends--;
      throw new Error('provider down');
    }
    this.sent.push({ account, status });
    return {
      id: String(90000 + this.sent.length),
      invoiceId: status.invoiceId,
      statusCode: status.statusCode,
      statusText: 'sent',
      reason: status.reason?.code ?? null,
      createdAt: new Date().toISOString(),
    };
  }
}
