import type { Knex } from 'knex';
import { AppError } from '../shared/app-error.js';
import { systemCaller } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import { inTenantContext } from '../shared/tenant-context.js';
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
import { insertSimulatedEvents, SIMULATED_PATH, type SimulatedEventRow, toSimulatedEvent } from './simulator-store.js';

/**
 * The built-in e-invoicing provider (DECISIONS.md "Providers"): sandbox always, production only with
 * ENABLE_SIMULATORS. It keeps its state in our database and behaves like SuperPDP from the outside: an
 * upload is pre-checked, gets an id and `api:uploaded`, then `fr:200`, `fr:202` and `fr:205` show
 * up in the event stream one step apart; statuses sent to it join the stream at once.
 */
export class SimulatedProvider implements EInvoicingProvider {
  constructor(
    private readonly db: Knex,
    private readonly clock: Clock,
    private readonly stepSeconds: number,
  ) {}

  private run<T>(account: ProviderAccountRef, work: (tx: Knex) => Promise<T>): Promise<T> {
    return inTenantContext(this.db, systemCaller(account.tenantId, account.environment), work);
  }

  async upload(account: ProviderAccountRef, request: UploadRequest): Promise<UploadResult> {
    const head = request.file.bytes.subarray(0, 5).toString('latin1');
    const readable =
      request.file.contentType === 'application/pdf' ? head === '%PDF-' : head.trimStart().startsWith('<');
    if (!readable) {
      return {
        outcome: 'refused',
        httpStatus: 400,
        message: `pre-check: the file is not a readable ${request.file.contentType}`,
      };
    }
    return this.run(account, async (tx) => {
      const [invoice] = await tx('simulated_provider_invoices')
        .insert({
          tenant_id: account.tenantId,
          connection_id: account.id,
          direction: 'out',
          external_id: request.externalId,
          processing_rule: request.processingRule,
          content_type: request.file.contentType,
          content: request.file.bytes,
          created_at: this.clock.now(),
        })
        .returning<{ id: string }[]>('id');
      const start = this.clock.now().getTime();
      const events = await insertSimulatedEvents(
        tx,
        { id: String(invoice.id), tenantId: account.tenantId, connectionId: account.id },
        SIMULATED_PATH.map((code, i) => ({ code, visibleAt: new Date(start + i * this.stepSeconds * 1000) })),
      );
      return { outcome: 'accepted', pdpId: String(invoice.id), events: [toSimulatedEvent(events[0])] };
    });
  }

  findUploaded(account: ProviderAccountRef, externalId: string): Promise<string | null> {
    return this.run(account, async (tx) => {
      const row = await tx('simulated_provider_invoices')
        .where({ connection_id: account.id, direction: 'out', external_id: externalId })
        .orderBy('id', 'desc')
        .first<{ id: string } | undefined>('id');
      return row ? String(row.id) : null;
    });
  }

  /** Events after the cursor, up to the first one still ahead in time: ids stay in visible order. */
  listEvents(account: ProviderAccountRef, afterId: string | null, limit: number): Promise<Page<ProviderEvent>> {
    return this.run(account, async (tx) => {
      const rows = await tx('simulated_provider_events')
        .where({ connection_id: account.id })
        .andWhere('id', '>', afterId ?? '0')
        .orderBy('id')
        .limit(limit + 1)
        .select<SimulatedEventRow[]>('*');
      const now = this.clock.now().getTime();
      const visible: SimulatedEventRow[] = [];
      for (const row of rows) {
        if (row.visible_at.getTime() > now) break;
        visible.push(row);
      }
      return { items: visible.slice(0, limit).map(toSimulatedEvent), hasAfter: visible.length > limit };
    });
  }

  listIncoming(account: ProviderAccountRef, afterId: string | null, limit: number): Promise<Page<IncomingSummary>> {
    return this.run(account, async (tx) => {
      const rows = await tx('simulated_provider_invoices')
        .where({ connection_id: account.id, direction: 'in' })
        .andWhere('id', '>', afterId ?? '0')
        .orderBy('id')
        .limit(limit + 1)
        .select<{ id: string; created_at: Date }[]>('id', 'created_at');
      return {
        items: rows.slice(0, limit).map((r) => ({ pdpId: String(r.id), createdAt: r.created_at.toISOString() })),
        hasAfter: rows.length > limit,
      };
    });
  }

  downloadOriginal(account: ProviderAccountRef, pdpId: string): Promise<{ bytes: Buffer; contentType: string }> {
    return this.run(account, async (tx) => {
      const row = await tx('simulated_provider_invoices')
        .where({ connection_id: account.id, id: pdpId })
        .first<{ content: Buffer; content_type: string } | undefined>('content', 'content_type');
      if (!row) throw new AppError('NOT_FOUND', `The simulator holds no invoice ${pdpId}.`);
      return { bytes: row.content, contentType: row.content_type };
    });
  }

  sendStatus(account: ProviderAccountRef, status: StatusToSend): Promise<ProviderEvent> {
    return this.run(account, async (tx) => {
      const invoice = await tx('simulated_provider_invoices')
        .where({ connection_id: account.id, id: status.invoiceId })
        .first<{ id: string } | undefined>('id');
      if (!invoice) {
        throw new AppError('PROVIDER_REFUSED', `The simulator holds no invoice ${status.invoiceId}.`, {
          retryable: false,
        });
      }
      const reason = status.reason ? [status.reason.code, status.reason.text].filter(Boolean).join(': ') : null;
      const [row] = await insertSimulatedEvents(
        tx,
        { id: String(invoice.id), tenantId: account.tenantId, connectionId: account.id },
        [{ code: status.statusCode, reason, visibleAt: this.clock.now() }],
      );
      return toSimulatedEvent(row);
    });
  }
}
