import fs from 'node:fs';
import { expect } from 'vitest';
import type { MariaDbInstance } from './mariadb.js';

const DB = 'useradmin';

/** One line of the import file: the person, as the file names them. */
export interface ImportPerson {
  /** The file's line number (the header is line 1). */
  line: number;
  name: string;
  email: string;
  role: 'manager' | 'viewer';
  active: boolean;
}

/**
 * Writes a CSV of `count` people on `domain` (header `name,email,roles,active`) to `file` and
 * returns them as written. Roles and activation vary line by line, so a line applied to the wrong
 * account, or twice, shows in the rows and in user_stats.
 */
export function writeImportCsv(file: string, count: number, domain: string): ImportPerson[] {
  const people: ImportPerson[] = [];
  const lines = ['name,email,roles,active'];
  for (let i = 1; i <= count; i++) {
    const person: ImportPerson = {
      line: i + 1,
      name: `Imported ${i}`,
      email: `i${i}@${domain}`,
      role: i % 2 === 0 ? 'viewer' : 'manager',
      active: i % 3 !== 0,
    };
    people.push(person);
    lines.push(`${person.name},${person.email},${person.role},${person.active ? 'yes' : 'no'}`);
  }
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return people;
}

/** The first row of `sql`, every column a number (the driver hands SUMs back as text). */
const one = async (primary: MariaDbInstance, sql: string) =>
  Object.fromEntries(
    Object.entries(((await primary.sql(sql, DB)) as Array<Record<string, unknown>>)[0] ?? {}).map(([k, v]) => [
      k,
      v === null ? null : Number(v),
    ]),
  );

interface ImportedRow {
  id: number;
  name: string;
  email: string;
  is_active: number;
  roles: string | null;
}

/**
 * What a `create` import of `people` (every line valid, on a domain nothing else writes to) must
 * have left on the primary, however often its runner died or the database went away: each person
 * exactly once, with the file's name, role and activation; each named by exactly one of the job's
 * `user.create` rows (one per account, with its values and line) and by no other audit row; one
 * import_changes row each; one user.created event each (one delivery to the one endpoint); the
 * job's submit and finish audited once; no report line. Returns the number of creation rows.
 */
export async function expectImportApplied(
  primary: MariaDbInstance,
  jobId: number,
  domain: string,
  people: readonly ImportPerson[],
) {
  const mine = `u.email LIKE '%@${domain}'`;
  const count = people.length;
  const rows = (await primary.sql(
    `SELECT u.id, u.name, u.email, u.is_active, GROUP_CONCAT(r.name ORDER BY r.name) AS roles
       FROM users u LEFT JOIN user_roles ur ON ur.user_id = u.id LEFT JOIN roles r ON r.id = ur.role_id
      WHERE ${mine} AND u.deleted_at IS NULL GROUP BY u.id`,
    DB,
  )) as ImportedRow[];
  const byEmail = new Map<string, ImportedRow[]>();
  for (const r of rows) byEmail.set(r.email, [...(byEmail.get(r.email) ?? []), r]);
  const missing = people.filter((p) => !byEmail.has(p.email)).map((p) => p.email);
  const twice = [...byEmail].filter(([, list]) => list.length > 1).map(([email]) => email);
  const expected = new Set(people.map((p) => p.email));
  const strangers = rows.filter((r) => !expected.has(r.email)).map((r) => r.email);
  // Missing and doubled e-mails named, not just counted: the first few say which chunk went wrong.
  expect({
    users: rows.length,
    missing: missing.slice(0, 10),
    twice: twice.slice(0, 10),
    strangers: strangers.slice(0, 10),
  }).toEqual({
    users: count,
    missing: [],
    twice: [],
    strangers: [],
  });
  const wrong = people.filter((p) => {
    const r = byEmail.get(p.email)?.[0];
    return !r || r.name !== p.name || Boolean(r.is_active) !== p.active || r.roles !== p.role;
  });
  expect(wrong.slice(0, 10), `${wrong.length} users unlike their line`).toEqual([]);

  // The chunk rows name the job in their context; each imported user is a target exactly once.
  const audit = await one(
    primary,
    `SELECT COUNT(*) AS targets, COUNT(DISTINCT t.target_id) AS users, SUM(a.id IS NULL) AS orphans,
            SUM(a.action <> 'user.create' OR JSON_VALUE(a.context, '$.job_id') <> ${jobId}) AS foreign_rows
       FROM users u JOIN audit_targets t ON t.target_id = u.id LEFT JOIN audit_logs a ON a.id = t.audit_id
      WHERE ${mine}`,
  );
  expect(audit).toEqual({ targets: count, users: count, orphans: 0, foreign_rows: 0 });
  const chunks = await one(
    primary,
    `SELECT COUNT(*) AS rows_, MAX(JSON_LENGTH(target_ids)) AS largest FROM audit_logs
      WHERE action = 'user.create' AND JSON_VALUE(context, '$.job_id') = ${jobId}`,
  );
  // One row per new account (its values and line), however many chunks carried them.
  expect(chunks).toEqual({ rows_: count, largest: 1 });
  const ends = await one(
    primary,
    `SELECT SUM(action = 'job.submit') AS submitted, SUM(action = 'job.finish') AS finished,
            SUM(action = 'job.finish' AND JSON_VALUE(context, '$.status') = 'succeeded') AS succeeded
       FROM audit_logs WHERE target_type = 'job' AND JSON_CONTAINS(target_ids, '${jobId}')`,
  );
  expect(ends).toEqual({ submitted: 1, finished: 1, succeeded: 1 });

  // The undo record: one row per user, the line it came from, nothing for anyone else.
  const changes = await one(
    primary,
    `SELECT COUNT(*) AS rows_, COUNT(DISTINCT c.user_id) AS users, COUNT(DISTINCT c.line) AS lines_,
            SUM(c.change <> 'created') AS not_created, SUM(u.id IS NULL) AS strangers,
            SUM(u.id IS NOT NULL AND c.line <> CAST(SUBSTRING_INDEX(SUBSTRING(u.email, 2), '@', 1) AS UNSIGNED) + 1) AS wrong_line
       FROM import_changes c LEFT JOIN users u ON u.id = c.user_id AND ${mine}
      WHERE c.job_id = ${jobId}`,
  );
  expect(changes).toEqual({ rows_: count, users: count, lines_: count, not_created: 0, strangers: 0, wrong_line: 0 });
  expect(await one(primary, `SELECT COUNT(*) AS items FROM job_items WHERE job_id = ${jobId}`)).toEqual({ items: 0 });

  // The outbox: an event exists exactly when its user's chunk committed, never twice.
  const events = await one(
    primary,
    `SELECT COUNT(*) AS events, COUNT(DISTINCT u.id) AS users, SUM(u.id IS NULL) AS strangers
       FROM webhook_events e
       LEFT JOIN users u ON u.id = JSON_VALUE(e.payload, '$.data.user.id') AND ${mine}
      WHERE e.type = 'user.created'`,
  );
  expect(events).toEqual({ events: count, users: count, strangers: 0 });
  const deliveries = await one(
    primary,
    'SELECT COUNT(*) AS deliveries, COUNT(DISTINCT event_id) AS events, (SELECT COUNT(*) FROM webhook_events) AS outbox FROM webhook_deliveries',
  );
  expect(deliveries).toEqual({ deliveries: count, events: count, outbox: count });
  return { creationRows: Number(chunks.rows_) };
}
