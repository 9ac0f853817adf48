import { BaseError, ConnectionError } from 'sequelize';

/**
 * Driver codes of a connection that is gone or cannot be made: the server stopped, restarted,
 * killed the connection or refused a new one. Any of them means "try again later", never a bug.
 */
const GONE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_SERVER_SHUTDOWN',
  'ER_CONNECTION_KILLED',
  'ER_CON_COUNT_ERROR',
  'ER_QUERY_INTERRUPTED',
]);

/** mysql2 refuses a command on a connection it already saw close, with this text and no code. */
const CLOSED_STATE = /connection is in closed state/i;

function codeOf(value: unknown): string | undefined {
  const code = (value as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Whether an error means the database could not be reached (as opposed to a query it refused):
 * Sequelize's connection errors, and driver errors about a connection lost mid-query, which
 * Sequelize wraps as a plain DatabaseError with the driver's error as `parent`.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  if (error instanceof ConnectionError) return true;
  if (!(error instanceof BaseError) && !(error instanceof Error)) return false;
  const parent = (error as { parent?: unknown }).parent ?? (error as { original?: unknown }).original;
  for (const candidate of [error, parent]) {
    const code = codeOf(candidate);
    if (code && GONE_CODES.has(code)) return true;
    if (candidate instanceof Error && CLOSED_STATE.test(candidate.message)) return true;
  }
  return false;
}
