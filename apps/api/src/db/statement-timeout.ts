/** The part of a mysql2 connection (callback API) Sequelize sends statements through. */
export interface StatementConnection {
  query(...args: unknown[]): unknown;
  execute(...args: unknown[]): unknown;
  destroy(): void;
}

/** mysql2's code for a statement that got no answer within its `timeout`. */
const TIMED_OUT = 'PROTOCOL_SEQUENCE_TIMEOUT';

/**
 * Gives every statement on `connection` a client-side time limit, so a database that stops
 * answering without closing its sockets (a frozen host, a network partition) fails requests
 * with 503 instead of holding them until TCP gives up. Sequelize passes no timeout to mysql2, so
 * the connection's two entry points add one. On a timeout mysql2 reports the error but keeps the
 * connection, whose late answer would then be read as the next statement's: it is destroyed,
 * so the pool drops it and a transaction on it is rolled back by the server.
 */
export function limitStatements(connection: StatementConnection, timeoutMs: number): void {
  for (const method of ['query', 'execute'] as const) {
    const send = connection[method].bind(connection);
    connection[method] = (statement: unknown, ...rest: unknown[]) => {
      const options =
        typeof statement === 'string'
          ? { sql: statement, timeout: timeoutMs }
          : { timeout: timeoutMs, ...(statement as object) };
      const at = rest.findIndex((arg) => typeof arg === 'function');
      if (at >= 0) {
        const callback = rest[at] as (err: unknown, ...results: unknown[]) => void;
        rest[at] = (err: unknown, ...results: unknown[]) => {
          if ((err as { code?: unknown } | null)?.code === TIMED_OUT) connection.destroy();
          callback(err, ...results);
        };
      }
      return send(options, ...rest);
    };
  }
}
