import { type Environment, systemCaller } from '../../domain/shared/caller.js';
import type { Deps } from '../../domain/shared/deps.js';
import type { EventName } from '../../domain/shared/event-catalogue.js';
import { execute } from '../../domain/shared/execute.js';
import { defineCommand } from '../../domain/shared/operation.js';
import type { EventData } from '../../domain/shared/tx-events.js';

/**
 * Emits one event through the real outbox (`ctx.events.emit` in a committed operation), as a
 * domain command would: the event row and its `dispatch-event` job commit together.
 */
export async function emitEvent(
  deps: Deps,
  tenantId: string,
  environment: Environment,
  name: EventName,
  data: EventData,
): Promise<string> {
  const emit = defineCommand<Record<string, never>, { id: string }>({
    name: 'emit_test_event',
    summary: 'Test command: emits one event.',
    input: 'EmptyInput',
    output: 'EmptyInput',
    callers: ['system'],
    run: async (_input, ctx) => ({ id: await ctx.events.emit(name, data) }),
  });
  return (await execute(emit, {}, systemCaller(tenantId, environment), deps)).id;
}
