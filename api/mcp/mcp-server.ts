import type { Caller } from '../../domain/shared/caller.js';
import type { Deps } from '../../domain/shared/deps.js';
import { asAppError, errorBody, errorLine } from '../../domain/shared/error-body.js';
import { authorize, execute } from '../../domain/shared/execute.js';
import { type JsonRpcId, type JsonRpcRequest, type JsonRpcResponse, RPC, rpcError, rpcResult } from './json-rpc.js';
import type { ToolCatalogue } from './tool-catalogue.js';

/** Spec "Versioning": MCP server version 1.2.0, protocol version 2024-11-05, echoed in `initialize`. */
export const MCP_SERVER_VERSION = '1.2.0';
export const MCP_SERVER_NAME = 'einvoice-mcp';
export const DEFAULT_PROTOCOL_VERSION = '2024-11-05';
/** The versions a client may ask for and get back; any other gets the default. */
export const PROTOCOL_VERSIONS: readonly string[] = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];

export const CAPABILITIES = { tools: { listChanged: false } } as const;

/** The protocol version answered to an `initialize` asking for `requested`. */
export const agreedVersion = (requested: unknown): string =>
  typeof requested === 'string' && PROTOCOL_VERSIONS.includes(requested) ? requested : DEFAULT_PROTOCOL_VERSION;

export interface ToolResult {
  content: { type: 'text'; text: string }[];
  isError?: boolean;
}

/**
 * The JSON-RPC methods after the session is settled: `ping`, `tools/list`, `tools/call`
 * (`initialize` opens the session in the transport). Business errors of a tool are results with
 * `isError`, in the HTTP error's code and message; a malformed call is a JSON-RPC error.
 */
export async function answer(
  request: JsonRpcRequest & { id: JsonRpcId },
  caller: Caller,
  deps: Deps,
  catalogue: ToolCatalogue,
): Promise<JsonRpcResponse> {
  const { id } = request;
  const params = (request.params ?? {}) as Record<string, unknown>;
  switch (request.method) {
    case 'ping':
      return rpcResult(id, {});
    case 'tools/list':
      return rpcResult(id, { tools: catalogue.listFor(caller.kind) });
    case 'tools/call':
      return callTool(id, params, caller, deps, catalogue);
    case 'initialize':
      return rpcError(id, RPC.INVALID_REQUEST, 'Invalid Request: this session is already initialized.');
    default:
      return rpcError(id, RPC.METHOD_NOT_FOUND, `Method not found: ${request.method}.`);
  }
}

async function callTool(
  id: JsonRpcId,
  params: Record<string, unknown>,
  caller: Caller,
  deps: Deps,
  catalogue: ToolCatalogue,
): Promise<JsonRpcResponse> {
  if (Array.isArray(params) || typeof params.name !== 'string') {
    return rpcError(id, RPC.INVALID_PARAMS, 'Invalid params: "name" must be the name of a tool (see tools/list).');
  }
  const tool = catalogue.find(params.name, caller.kind);
  if (!tool) return rpcError(id, RPC.INVALID_PARAMS, `Unknown tool: ${params.name}. See tools/list.`);
  const raw = params.arguments ?? {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return rpcError(id, RPC.INVALID_PARAMS, 'Invalid params: "arguments" must be an object.');
  }
  const args = structuredClone(raw) as Record<string, unknown>;
  const errors = tool.check(args);
  if (errors) {
    const lines = Object.entries(errors).flatMap(([path, messages]) => messages.map((m) => `${path}: ${m}`));
    return rpcError(id, RPC.INVALID_PARAMS, `Invalid arguments for ${tool.spec.name}: ${lines.join('; ')}`, { errors });
  }
  try {
    const operation = typeof tool.spec.operation === 'function' ? tool.spec.operation(args) : tool.spec.operation;
    authorize(operation, caller); // the caller's kind and scope first, as a route checks them before the body
    const input = tool.spec.toInput ? await tool.spec.toInput(args, caller, deps) : args;
    const output = await execute(operation, input, caller, deps);
    return rpcResult(id, toolResult(output));
  } catch (err) {
    const known = asAppError(err);
    if (!known) {
      deps.log.error({ err, tool: tool.spec.name, request_id: caller.requestId }, 'MCP tool failed');
      const quote = caller.requestId ? ` Quote request id ${caller.requestId} to support.` : '';
      return rpcError(id, RPC.INTERNAL_ERROR, `Internal error.${quote}`);
    }
    const result: ToolResult = { content: [{ type: 'text', text: errorLine(errorBody(known)) }], isError: true };
    return rpcResult(id, result);
  }
}

/**
 * An operation's output as a tool result: its JSON as text. No tool answers a file: the download and
 * export tools call the operations that answer a short-lived link instead.
 */
function toolResult(output: unknown): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(output ?? null) }] };
}
