/**
 * The MCP server's paths in the OpenAPI document (docs/api/mcp.md). They are not route tables
 * (api/mcp/ serves them: JSON-RPC, one path for every method), so they are described here by hand,
 * at the root and under `/api` alike. A JSON-RPC body is described as JSON-RPC 2.0, not per method.
 */

const jsonRpcId = { type: ['string', 'number', 'null'], description: 'Echoed exactly in the answer.' };

const jsonRpcMessage = {
  type: 'object',
  required: ['jsonrpc', 'method'],
  properties: {
    jsonrpc: { type: 'string', const: '2.0' },
    id: jsonRpcId,
    method: {
      type: 'string',
      description: '`initialize`, `ping`, `tools/list`, `tools/call`, or a notification (`notifications/initialized`).',
    },
    params: {
      type: 'object',
      description: '`tools/call`: `{name, arguments}`; `initialize`: `{protocolVersion, clientInfo}`.',
    },
  },
};

const jsonRpcAnswer = {
  type: 'object',
  required: ['jsonrpc', 'id'],
  properties: {
    jsonrpc: { type: 'string', const: '2.0' },
    id: jsonRpcId,
    result: {
      type: 'object',
      description:
        'A tool call answers `{content: [{type: "text", text}], isError?}`; a business error sets `isError`.',
    },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: {
          type: 'integer',
          description:
            '-32700 parse error, -32600 invalid request, -32601 unknown method, -32602 bad arguments, -32001 key or rate limit, -32002 session, -32603 internal.',
        },
        message: { type: 'string' },
        data: { type: 'object' },
      },
    },
  },
};

const rpcContent = (description: string) => ({
  description,
  content: { 'application/json': { schema: { oneOf: [jsonRpcAnswer, { type: 'array', items: jsonRpcAnswer }] } } },
});

const sessionHeader = {
  name: 'Mcp-Session-Id',
  in: 'header',
  required: false,
  description: 'The session `initialize` opened; required on every other request.',
  schema: { type: 'string', maxLength: 200 },
};

const security = [{ ApiKey: [] }];

function pathsAt(prefix: string, suffix: string): Record<string, Record<string, unknown>> {
  return {
    [`${prefix}/mcp`]: {
      get: {
        operationId: `mcp_discovery${suffix}`,
        tags: ['MCP'],
        summary: 'The MCP server: name, version, protocol, tool count, capabilities.',
        description:
          'A client that accepts only `text/event-stream` (the SDK opening its stream) gets 405: there is no stream at this path.',
        security: [],
        responses: {
          '200': {
            description: 'The discovery document.',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['name', 'version', 'protocol', 'tools_count', 'capabilities'],
                  properties: {
                    name: { type: 'string' },
                    version: { type: 'string' },
                    protocol: { type: 'string' },
                    tools_count: { type: 'integer' },
                    capabilities: { type: 'object' },
                  },
                },
              },
            },
          },
          '405': rpcContent('No event stream at this path.'),
        },
      },
      post: {
        operationId: `mcp_message${suffix}`,
        tags: ['MCP'],
        summary: 'JSON-RPC 2.0 messages of the MCP server (Streamable HTTP, answered as JSON).',
        description:
          'One message or a batch. `initialize` answers the header `Mcp-Session-Id`. Rate limit: 60 per minute per key.',
        security,
        parameters: [sessionHeader],
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: { oneOf: [jsonRpcMessage, { type: 'array', items: jsonRpcMessage }] } },
          },
        },
        responses: {
          '200': rpcContent('The answers to the requests.'),
          '202': { description: 'Only notifications or responses were sent: no body.' },
          '400': rpcContent('-32700 parse error, -32600 an empty batch, -32002 no session.'),
          '401': rpcContent('-32001: no key, or an unknown, revoked or expired one.'),
          '403': rpcContent('-32001: a key refused for its environment, KYB or a disabled tenant.'),
          '404': rpcContent('-32002: unknown, ended or idle session.'),
          '413': rpcContent('The body is over 30 MB.'),
          '429': rpcContent('-32001: the MCP rate limit (Retry-After).'),
          '500': rpcContent('-32603: an unforeseen failure.'),
        },
      },
      delete: {
        operationId: `mcp_end_session${suffix}`,
        tags: ['MCP'],
        summary: 'Ends an MCP session.',
        security,
        parameters: [{ ...sessionHeader, required: true }],
        responses: {
          '204': { description: 'The session is ended.' },
          '401': rpcContent('-32001: no usable key.'),
          '404': rpcContent('-32002: no such session for this key.'),
          '429': rpcContent('-32001: the MCP rate limit.'),
        },
      },
    },
    [`${prefix}/mcp/stream`]: {
      get: {
        operationId: `mcp_stream${suffix}`,
        tags: ['MCP'],
        summary: 'The MCP Server-Sent Events stream: a ping event at once and every 30 seconds.',
        security,
        responses: {
          '200': {
            description: '`event: ping` with `{"type": "ping", "timestamp"}`, until the client goes.',
            content: { 'text/event-stream': { schema: { type: 'string' } } },
          },
          '401': rpcContent('-32001: no usable key.'),
          '406': rpcContent('The request does not accept text/event-stream.'),
          '429': rpcContent('-32001: the MCP rate limit.'),
        },
      },
    },
  };
}

/** The MCP paths, at the root and under `/api` (DECISIONS.md: served at both). */
export const MCP_PATHS: Record<string, Record<string, unknown>> = { ...pathsAt('', ''), ...pathsAt('/api', '_api') };
