import type { ToolSpec } from '../tool.js';
import { accountTools } from './account.tools.js';
import { creditNoteTools } from './credit-notes.tools.js';
import { fiscalTools } from './fiscal.tools.js';
import { invoiceTools } from './invoices.tools.js';
import { signatureTools } from './signatures.tools.js';
import { tenantTools } from './tenant.tools.js';

/** The 54 tools of the specification ("MCP server", Tools), in its order of groups. */
export const TOOLS: readonly ToolSpec[] = [
  ...invoiceTools,
  ...signatureTools,
  ...creditNoteTools,
  ...fiscalTools,
  ...accountTools,
  ...tenantTools,
];
