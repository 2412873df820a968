/** JSON-RPC 2.0 as the MCP server speaks it (spec "Errors": the MCP codes). */

export type JsonRpcId = string | number | null;

export const RPC = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  /** A missing, invalid or refused key, and the MCP rate limit (spec "Errors"). */
  UNAUTHORIZED: -32001,
  /** A missing, unknown or idle session. */
  INVALID_SESSION: -32002,
} as const;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  /** Absent on a notification. */
  id?: JsonRpcId;
  method: string;
  params?: unknown;
}

export interface JsonRpcError {
  jsonrpc: '2.0';
  id: JsonRpcId;
  error: { code: number; message: string; data?: unknown };
}

export interface JsonRpcResult {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result: unknown;
}

export type JsonRpcResponse = JsonRpcResult | JsonRpcError;

export const rpcError = (id: JsonRpcId, code: number, message: string, data?: unknown): JsonRpcError => ({
  jsonrpc: '2.0',
  id,
  error: data === undefined ? { code, message } : { code, message, data },
});

export const rpcResult = (id: JsonRpcId, result: unknown): JsonRpcResult => ({ jsonrpc: '2.0', id, result });

/** A valid id: a string, a number or null (JSON-RPC 2.0 §4); echoed back exactly. */
const isId = (value: unknown): value is JsonRpcId =>
  value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));

/**
 * One message of a request body: a request or notification, a response the client sends back (which
 * this server, asking nothing, ignores), or the error answering a malformed one.
 */
export type Incoming =
  | { kind: 'request'; message: JsonRpcRequest & { id: JsonRpcId } }
  | { kind: 'notification'; message: JsonRpcRequest }
  | { kind: 'response' }
  | { kind: 'invalid'; error: JsonRpcError };

export function classify(value: unknown): Incoming {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      kind: 'invalid',
      error: rpcError(null, RPC.INVALID_REQUEST, 'Invalid Request: a message is a JSON object.'),
    };
  }
  const message = value as Record<string, unknown>;
  const id = 'id' in message && isId(message.id) ? message.id : null;
  if (message.jsonrpc !== '2.0') {
    return { kind: 'invalid', error: rpcError(id, RPC.INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0".') };
  }
  if ('id' in message && !isId(message.id)) {
    return {
      kind: 'invalid',
      error: rpcError(null, RPC.INVALID_REQUEST, 'Invalid Request: "id" must be a string, a number or null.'),
    };
  }
  if (typeof message.method !== 'string') {
    if ('result' in message || 'error' in message) return { kind: 'response' };
    return { kind: 'invalid', error: rpcError(id, RPC.INVALID_REQUEST, 'Invalid Request: "method" must be a string.') };
  }
  if ('params' in message && (typeof message.params !== 'object' || message.params === null)) {
    return {
      kind: 'invalid',
      error: rpcError(id, RPC.INVALID_REQUEST, 'Invalid Request: "params" must be an object or an array.'),
    };
  }
  const request = message as unknown as JsonRpcRequest;
  return 'id' in message
    ? { kind: 'request', message: request as JsonRpcRequest & { id: JsonRpcId } }
    : { kind: 'notification', message: request };
}
