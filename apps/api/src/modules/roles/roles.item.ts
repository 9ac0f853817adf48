import type { RoleItem } from '@app/contracts';
import { toIso } from '../../db/sql-date.js';

/** A role row as the reads select it (dates as the driver gives them: a Date, or SQLite's text). */
export interface RoleRecord {
  id: number | string;
  name: string;
  description: string | null;
  guard_name: string;
  lock_version: number | string;
  require_two_factor: number | string | boolean;
  created_at: Date | string;
  updated_at: Date | string;
}

/** The opaque optimistic-lock token of a role, as a user's (`versionOf`): the id and the lock counter. */
export const roleVersionOf = (role: { id: number | string; lock_version: number | string }): string =>
  Buffer.from(`${Number(role.id)}:${Number(role.lock_version)}`).toString('base64url');

/** The item every role answer starts from; counts, permissions and actions are added by who asks. */
export function roleItemOf(row: RoleRecord): RoleItem {
  return {
    id: Number(row.id),
    name: row.name,
    description: row.description ?? null,
    guard_name: row.guard_name,
    version: roleVersionOf(row),
    require_two_factor: Boolean(Number(row.require_two_factor)),
    created_at: toIso(row.created_at) as string,
    updated_at: toIso(row.updated_at) as string,
  };
}

/** The columns a {@link RoleRecord} is read from, for a role aliased `r`. */
export const ROLE_RECORD_COLUMNS =
  'r.id, r.name, r.description, r.guard_name, r.lock_version, r.require_two_factor, r.created_at, r.updated_at';
