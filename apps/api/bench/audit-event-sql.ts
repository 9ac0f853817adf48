// The SQL vocabulary of the seeded audit events' values: an event's SQL expressions (EventSql)
// and the builders of the JSON `changes` and `context` the actions store, as recordChange stores them.

/** SQL text of an event's values, for the actions' JSON builders. */
export interface EventSql {
  /** The event's index. */
  n: string;
  /** A 32-bit hash of the index, one per salt. */
  hash: (salt: string) => string;
  /** One of `options` (SQL), chosen by the hash of `salt`. */
  pick: (salt: string, options: readonly string[]) => string;
  /** Another of `options` than `pick(unlike, options)`: what a change turned it into. */
  pickOther: (unlike: string, salt: string, options: readonly string[]) => string;
  /** A DATETIME as `Date.toISOString()` writes it. */
  iso: (datetime: string) => string;
  /** When it happened. */
  ts: string;
  /** The e-mail a failed login was tried with. */
  triedEmail: string;
  /** How many users a bulk names. */
  bulkCount: string;
}

export const lit = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
const NAMES = ['Ada Lovelace', 'Alan Turing', 'Grace Hopper', 'Radia Perlman', 'Ken Thompson', 'Hedy Lamarr'];
const ROLES = ['[]', '["viewer"]', '["manager"]', '["manager","viewer"]', '["admin"]'];
export const TOKENS = ['hr-sync', 'okta-scim', 'ci-deploy', 'reporting'];
export const ACTIVATE = '{"is_active":{"before":false,"after":true}}';
export const DEACTIVATE = '{"is_active":{"before":true,"after":false}}';
export const ERASED = '{"record":{"before":"deleted","after":"erased"}}';

/** `{"field":{"before":…,"after":…}}` members, each value already JSON (SQL giving JSON text). */
export const changeSet = (...changes: Array<[field: string, before: string, after: string]>) =>
  `CONCAT('{', ${changes.map(([f, b, a]) => `'"${f}":{"before":', ${b}, ',"after":', ${a}, '}'`).join(", ',', ")}, '}')`;
export const jsonString = (sql: string) => `CONCAT('"', ${sql}, '"')`;
/** One of `options`, or with `unlike` another than the one its salt picks. */
const choose = (e: EventSql, salt: string, options: readonly string[], unlike?: string) =>
  unlike ? e.pickOther(unlike, salt, options) : e.pick(salt, options);
export const name = (e: EventSql, salt: string, unlike?: string) => jsonString(choose(e, salt, NAMES.map(lit), unlike));
export const email = (e: EventSql, salt: string, unlike?: string) =>
  jsonString(
    `CONCAT(${choose(e, salt, ['ada', 'alan', 'grace', 'radia', 'ken', 'hedy'].map(lit), unlike)}, '.', ${e.n} % 9973, '@example.com')`,
  );
export const roles = (e: EventSql, salt: string, unlike?: string) => choose(e, salt, ROLES.map(lit), unlike);
export const deletedNow = (e: EventSql) => changeSet(['deleted_at', "'null'", jsonString(e.iso(e.ts))]);
/** As the bulk handler records it (the seeded bulks skip nobody). */
export const bulkContext = (e: EventSql) => `CONCAT('{"requested":', ${e.bulkCount}, ',"skipped":[]}')`;

/** A user update's diff: name, e-mail, roles, status with roles, or nothing (a password change). */
export const UPDATE_SHAPES = 8;
export const PASSWORD_ONLY = UPDATE_SHAPES - 1;
export function updateChanges(e: EventSql): string {
  const shapes = [
    changeSet(['name', name(e, 'n1'), name(e, 'n2', 'n1')]),
    changeSet(['name', name(e, 'n1'), name(e, 'n2', 'n1')]),
    changeSet(['email', email(e, 'e1'), email(e, 'e2', 'e1')]),
    changeSet(['roles', roles(e, 'r1'), roles(e, 'r2', 'r1')]),
    changeSet(['roles', roles(e, 'r1'), roles(e, 'r2', 'r1')]),
    changeSet(['name', name(e, 'n1'), name(e, 'n2', 'n1')], ['email', email(e, 'e1'), email(e, 'e2', 'e1')]),
    changeSet(['is_active', "'true'", "'false'"], ['roles', e.pick('r1', ROLES.slice(1).map(lit)), "'[]'"]),
    "'{}'",
  ];
  return `ELT(1 + ${e.hash('u')} % ${UPDATE_SHAPES}, ${shapes.join(', ')})`;
}

export const exportContext = (columns: string[]) => (e: EventSql) =>
  `CONCAT('{"format":"', ${e.pick('x', ["'csv'", "'csv'", "'xlsx'", "'json'"])}, '","columns":${JSON.stringify(columns)},"filters":{},"q":null,"sort":null,"dir":null}')`;
