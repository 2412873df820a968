import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Decimal } from '../domain/billing/index.js';
import {
  type DocumentLine,
  type DocumentParty,
  type InvoiceDocument,
  renderFormat,
  renderInvoicePdf,
  writeCii,
  writeFacturX,
  writeUbl,
} from '../domain/documents/index.js';

/**
 * `document_generate`: how many 10-line invoices one process renders per second, the document
 * worker's ceiling before any I/O. Per file (targets on the 2-core box: ≥ 800 UBL/s, ≥ 300 CII/s,
 * ≥ 150 Factur-X/s, the Factur-X figure including writing its CII), and per worker job, which
 * renders everything an invoice of each format gets (domain/documents/render.ts: Factur-X and its
 * CII; UBL or CII and the readable PDF).
 */
export interface DocumentsReport {
  ubl_per_second: number;
  cii_per_second: number;
  facturx_per_second: number;
  readable_pdf_per_second: number;
  worker_job_per_second: { facturx: number; ubl: number; cii: number };
}

const party = (name: string, siren: string, city: string): DocumentParty => ({
  name,
  siret: `${siren}00017`,
  vatNumber: `FR12${siren}`,
  legalId: null,
  address: { line1: '10 avenue de la République', line2: 'Bâtiment A', postalCode: '75011', city, country: 'FR' },
  electronicAddress: { scheme: '0225', value: siren },
});

const money = (value: Decimal): string => value.toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);

/** A business invoice with 10 lines at 20 % and 10 % and the usual legal notes. */
function tenLineInvoice(): InvoiceDocument {
  const lines: DocumentLine[] = Array.from({ length: 10 }, (_, i) => {
    const quantity = String(i + 1);
    const unitPrice = new Decimal('12.3456').times(i + 1).toFixed(4);
    return {
      lineNumber: i + 1,
      description: `Prestation n° ${i + 1} : maintenance & support <niveau ${i % 3}>`,
      quantity,
      unitCode: 'C62',
      unitPrice,
      netAmount: money(new Decimal(quantity).times(unitPrice)),
      vatCategory: 'S',
      vatRate: i % 2 ? '10' : '20',
    };
  });
  const vatBreakdown = ['20', '10'].map((rate) => {
    const basis = lines.filter((l) => l.vatRate === rate).reduce((sum, l) => sum.plus(l.netAmount), new Decimal(0));
    const tax = money(basis.times(rate).dividedBy(100));
    return {
      category: 'S' as const,
      rate,
      taxableAmount: money(basis),
      taxAmount: tax,
      exemptionReason: null,
      exemptionReasonCode: null,
    };
  });
  const lineTotal = lines.reduce((sum, l) => sum.plus(l.netAmount), new Decimal(0));
  const taxTotal = vatBreakdown.reduce((sum, r) => sum.plus(r.taxAmount), new Decimal(0));
  const grandTotal = money(lineTotal.plus(taxTotal));
  return {
    typeCode: '380',
    number: 'BENCH-2026-0001',
    issueDate: '2026-03-02',
    dueDate: '2026-04-01',
    currency: 'EUR',
    buyerReference: 'PO-12345',
    seller: party('Atelier Lumière SAS', '732829320', 'Paris'),
    buyer: party('Boulangerie Dupont SARL', '412345670', 'Lyon'),
    buyerIsIndividual: false,
    deliveryDate: '2026-03-02',
    deliverToCountry: null,
    lines,
    vatBreakdown,
    totals: {
      lineTotal: money(lineTotal),
      taxBasisTotal: money(lineTotal),
      taxTotal: money(taxTotal),
      grandTotal,
      prepaidAmount: '0.00',
      duePayable: grandTotal,
    },
    paymentTerms: 'Paiement à 30 jours fin de mois.',
    notes: [
      { subjectCode: 'PMT', text: 'Indemnité forfaitaire pour frais de recouvrement : 40 EUR.' },
      { subjectCode: 'PMD', text: 'Pénalités de retard : 3 fois le taux d’intérêt légal.' },
      { subjectCode: 'AAB', text: 'Pas d’escompte pour paiement anticipé.' },
    ],
    precedingInvoice: null,
  };
}

/** Documents per second of `write` over `seconds`, after a short warm-up the JIT needs. */
function rate(write: () => Buffer, seconds: number): number {
  const warmUpUntil = performance.now() + Math.min(500, seconds * 100);
  while (performance.now() < warmUpUntil) write();
  let count = 0;
  let bytes = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  let now = start;
  while (now < end) {
    for (let i = 0; i < 50; i++) bytes += write().length;
    count += 50;
    now = performance.now();
  }
  if (bytes === 0) throw new Error('the writer produced nothing');
  return Math.round(count / ((now - start) / 1000));
}

/** Worker jobs of one format per second, over `seconds`, in this process. */
export function workerJobRate(format: 'facturx' | 'ubl' | 'cii', seconds: number, doc = tenLineInvoice()): number {
  return rate(() => Buffer.concat(renderFormat(doc, format).map((f) => f.content)), seconds);
}

/** Measures each writer, then each worker job, `seconds` each, in this process. */
export async function measureDocuments(seconds: number): Promise<DocumentsReport> {
  const doc = tenLineInvoice();
  const job = (format: 'facturx' | 'ubl' | 'cii') => workerJobRate(format, seconds, doc);
  return {
    ubl_per_second: rate(() => writeUbl(doc), seconds),
    cii_per_second: rate(() => writeCii(doc, 'en16931'), seconds),
    facturx_per_second: rate(() => writeFacturX(doc, writeCii(doc, 'en16931'), 'en16931'), seconds),
    readable_pdf_per_second: rate(() => renderInvoicePdf(doc), seconds),
    worker_job_per_second: { facturx: job('facturx'), ubl: job('ubl'), cii: job('cii') },
  };
}

// `node dist/bench/documents.js [seconds]` prints the report on its own.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const seconds = Number(process.argv[2] ?? 5);
  measureDocuments(seconds).then((report) => process.stdout.write(`${JSON.stringify(report)}\n`));
}
