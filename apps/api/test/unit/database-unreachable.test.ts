import { ConnectionRefusedError, DatabaseError, UniqueConstraintError } from 'sequelize';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnreachable } from '../../src/db/unavailable.js';
import { describeError } from '../../src/trpc/error-formatter.js';

const driverError = (code: string, message = code) => Object.assign(new Error(message), { code, sql: 'SELECT secret' });

describe('a database that cannot be reached', () => {
  it('is told apart from a query the database refused', () => {
    expect(isDatabaseUnreachable(new ConnectionRefusedError(driverError('ECONNREFUSED')))).toBe(true);
    // A connection lost mid-query reaches us as a plain DatabaseError around the driver's error.
    expect(isDatabaseUnreachable(new DatabaseError(driverError('PROTOCOL_CONNECTION_LOST') as never))).toBe(true);
    expect(isDatabaseUnreachable(new DatabaseError(driverError('ER_SERVER_SHUTDOWN') as never))).toBe(true);
    const closed = new Error("Can't add new command when connection is in closed state");
    expect(isDatabaseUnreachable(new DatabaseError(closed as never))).toBe(true);

    expect(isDatabaseUnreachable(new DatabaseError(driverError('ER_PARSE_ERROR') as never))).toBe(false);
    expect(isDatabaseUnreachable(new UniqueConstraintError({}))).toBe(false);
    expect(isDatabaseUnreachable(new Error('boom'))).toBe(false);
  });

  it('is answered 503 UNAVAILABLE with Retry-After, without the driver message or SQL', () => {
    const described = describeError(
      new DatabaseError(driverError('PROTOCOL_CONNECTION_LOST', 'Connection lost') as never),
    );
    expect(described.code).toBe('UNAVAILABLE');
    expect(described.headers).toEqual({ 'retry-after': '2' });
    expect(JSON.stringify(described)).not.toMatch(/SELECT|Connection lost|PROTOCOL/);
  });
});
