import { expireQuote } from '../../domain/quotes/operations/index.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import type { JobHandler } from '../job-handler.js';

export const expireQuoteJob: JobHandler<'expire-quote'> = async (payload, deps) =>
  execute(expireQuote, { quote_id: payload.quoteId }, systemCaller(payload.tenantId), deps);
