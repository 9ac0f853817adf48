import { BULK_PERMISSIONS, type BulkOperation, type ImportMode, type JobKind, type Permission } from '@app/contracts';
import type { Actor } from '../auth/actor.js';

/**
 * What a job was asked to do, as far as who may run or stop it goes: the facts its permissions
 * follow from, read off the job's row (jobs/job-rows.ts, `jobAskedOf`).
 */
export type JobAsked =
  | { kind: 'bulk'; operation: BulkOperation }
  | { kind: 'import'; mode: ImportMode; activate: boolean; restore: boolean }
  /** An undo removes the accounts an import created and puts back those it updated. */
  | { kind: 'undo'; removes: boolean; restores: boolean }
  /** Or it reverses a bulk change (`undoes`) by the operation with the opposite effect (`inverse`). */
  | { kind: 'undo'; undoes: BulkOperation; inverse: BulkOperation };

/** The bulk change that reverses one, with the status to set; null when nothing can (see bulkInverse). */
export interface BulkInverse {
  operation: BulkOperation;
  active: boolean | null;
}

/**
 * What undoes a bulk operation: the one with the opposite effect, run over the users it changed.
 * An erasure cannot come back, invitations sent cannot be unsent, and a setAttribute keeps no
 * record of the values it replaced (issue 40 leaves those out): null.
 */
export function bulkInverse(operation: BulkOperation, active: boolean | null): BulkInverse | null {
  switch (operation) {
    case 'setActive':
      return active === null ? null : { operation: 'setActive', active: !active };
    case 'delete':
      return { operation: 'restore', active: null };
    case 'restore':
      return { operation: 'delete', active: null };
    case 'addRole':
      return { operation: 'removeRole', active: null };
    case 'removeRole':
      return { operation: 'addRole', active: null };
    default:
      return null;
  }
}

/**
 * Why a job leaves nothing to undo, or null when it changed someone: a dry run changed nobody, and
 * neither did a run that skipped everyone. Such a job offers no undo (its `undo.until` stays null,
 * so no Undo is shown) and takes none (409 NOT_UNDOABLE).
 */
export function nothingToUndo(job: { dryRun: boolean; changed: number }): string | null {
  if (job.dryRun) return 'A dry run changed nothing: there is nothing to undo.';
  return job.changed > 0 ? null : 'The job changed nobody: there is nothing to undo.';
}

/** Undoing one change of an import: removing an account it created, putting back one it updated. */
export const undoPermission = (change: 'created' | 'updated'): Permission =>
  change === 'created' ? 'users.delete' : 'users.update';

type PermissionsByKind = { [K in JobKind]: (asked: Extract<JobAsked, { kind: K }>) => Permission[] };

/**
 * The permissions each kind of job needs, by what it was asked: what its submission is refused
 * without, what its runner asks of the submitter at every chunk, and what cancelling someone
 * else's job takes besides jobs.view. Keyed by every kind the contracts name, so a new kind does
 * not compile until it says what it needs.
 */
const PERMISSIONS_BY_KIND: PermissionsByKind = {
  bulk: ({ operation }) => [BULK_PERMISSIONS[operation]],
  import: ({ mode, activate, restore }) => [
    'users.create',
    ...(mode === 'upsert' ? (['users.update'] as const) : []),
    // Creating accounts inactive sets their status (usersPolicy.createInactive).
    ...(activate ? [] : (['users.setActive'] as const)),
    ...(restore ? (['users.restore'] as const) : []),
  ],
  // Undoing a bulk change takes what the change took and what its reversal takes.
  undo: (asked) =>
    'undoes' in asked
      ? [...new Set([BULK_PERMISSIONS[asked.undoes], BULK_PERMISSIONS[asked.inverse]])]
      : [...(asked.removes ? [undoPermission('created')] : []), ...(asked.restores ? [undoPermission('updated')] : [])],
};

export function jobPermissions(asked: JobAsked): Permission[] {
  // Each entry takes its own kind; TypeScript cannot narrow the table's lookup by `asked.kind`.
  const needs = PERMISSIONS_BY_KIND[asked.kind] as (asked: JobAsked) => Permission[];
  return needs(asked);
}

/** Everyone sees the jobs they started; jobs.view sees every job. */
export const seesEveryJob = (actor: Pick<Actor, 'permissions'>): boolean => actor.permissions.has('jobs.view');

/** Whether the actor may see a job: its page, its report (anyone else's is not found). */
export const maySeeJob = (actor: Pick<Actor, 'id' | 'permissions'>, submitterId: number | null): boolean =>
  submitterId === actor.id || seesEveryJob(actor);

/** The first of `permissions` the actor lacks (a job's submitter, asked again at every chunk); null when none. */
export function firstLacking(actor: Actor, permissions: readonly Permission[]): Permission | null {
  return permissions.find((p) => !actor.permissions.has(p)) ?? null;
}

/** Why an undo leaves one change of its import as it is because its submitter lacks what reverting it takes. */
export function undoChangeRefusal(actor: Actor, change: 'created' | 'updated'): string | null {
  const needed = undoPermission(change);
  return actor.permissions.has(needed) ? null : `You need the ${needed} permission to undo this.`;
}

/** Why a permission set falls short of a job's, naming the first missing one; null when it does not. */
export function lackingForJob(actor: Actor, asked: JobAsked): Permission | null {
  return firstLacking(actor, jobPermissions(asked));
}

export interface JobRefusal {
  code: 'FORBIDDEN';
  message: string;
  permission?: Permission;
}

/**
 * Who may cancel a job: its submitter, or someone who sees every job (jobs.view) and holds every
 * permission submitting that job needed — stopping a change is as much a decision about it as
 * starting one. A job whose row this version cannot read (`asked` null) is its submitter's alone.
 */
export function cancelRefusal(
  actor: Actor,
  job: { submitterId: number | null; asked: JobAsked | null },
): JobRefusal | null {
  if (job.submitterId !== null && job.submitterId === actor.id) return null;
  if (!actor.permissions.has('jobs.view')) {
    return {
      code: 'FORBIDDEN',
      message: 'You need the jobs.view permission to cancel a job someone else started.',
      permission: 'jobs.view',
    };
  }
  if (!job.asked) {
    return { code: 'FORBIDDEN', message: 'Only the person who started this job can cancel it.' };
  }
  const lacking = lackingForJob(actor, job.asked);
  return lacking
    ? { code: 'FORBIDDEN', message: `You need the ${lacking} permission to cancel this job.`, permission: lacking }
    : null;
}
