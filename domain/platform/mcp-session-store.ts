import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';

/** A session idle this long is gone (spec "Limits": MCP session TTL 3600 seconds of inactivity). */
export const MCP_SESSION_IDLE_SECONDS = 3600;

export interface McpSessionOwner {
  tenantId: string;
  /** The key that opened the session: the session answers that key only. */
  keyId: string;
}

const hashOf = (sessionId: string): string => createHash('sha256').update(sessionId).digest('hex');

/**
 * The MCP sessions in PostgreSQL (migrations/20261127060000_create_mcp_sessions.ts), so that any web
 * process serves any session. The id goes to the client once; only its SHA-256 is stored. Each call
 * is one statement, outside any transaction.
 */
export async function openMcpSession(
  db: Knex,
  owner: McpSessionOwner,
  protocolVersion: string,
  now: Date,
): Promise<string> {
  const sessionId = randomBytes(24).toString('base64url');
  await db.raw('select mcp_open_session(?, ?, ?, ?, ?, ?)', [
    hashOf(sessionId),
    owner.tenantId,
    owner.keyId,
    protocolVersion,
    now,
    MCP_SESSION_IDLE_SECONDS,
  ]);
  return sessionId;
}

/** The session's protocol version, its idle clock reset; null when unknown, another key's or idle. */
export async function touchMcpSession(db: Knex, sessionId: string, keyId: string, now: Date): Promise<string | null> {
  const { rows } = await db.raw<{ rows: { protocol_version: string }[] }>(
    'select protocol_version from mcp_touch_session(?, ?, ?, ?)',
    [hashOf(sessionId), keyId, now, MCP_SESSION_IDLE_SECONDS],
  );
  return rows[0]?.protocol_version ?? null;
}

/** Ends the key's session; false when there was none. */
export async function endMcpSession(db: Knex, sessionId: string, keyId: string): Promise<boolean> {
  const { rows } = await db.raw<{ rows: { ended: boolean }[] }>('select mcp_end_session(?, ?) as ended', [
    hashOf(sessionId),
    keyId,
  ]);
  return rows[0]?.ended === true;
}
