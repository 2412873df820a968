import { type Caller, systemCaller } from '../shared/caller.js';

/**
 * An admin's KYB work reaches every tenant's documents: its operations check the admin (kind and
 * permission) and then run their step as the system, which row-level security lets through, with
 * the admin's request id for the logs.
 */
export const kybSystemCaller = (admin: Caller): Caller => ({ ...systemCaller(), requestId: admin.requestId ?? null });
