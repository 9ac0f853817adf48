import { CircleX, type LucideIcon, Power, PowerOff, RotateCcw, ShieldMinus, ShieldPlus, Trash2 } from 'lucide-react';
import {
  BULK_PERMISSIONS,
  type BulkInput,
  type BulkReport,
  type BulkRequest,
  type CapabilityMap,
  type Job,
  canSeeTrash as holdsTrashPermission,
  type Permission,
  type UserActions,
  type UserRecordAction,
} from '@app/contracts';
import { isOffered, refusalOf } from '../action-state';
import type { TrashView } from './users-list-state';

/** What can be done to users from the list, one by one or in bulk. */
export const USER_ACTIONS = ['activate', 'deactivate', 'delete', 'restore', 'forceDelete'] as const;
export type UserAction = (typeof USER_ACTIONS)[number];

/** Bulk only: give or take one role, chosen after the action (`BulkCommand`). */
export const ROLE_ACTIONS = ['addRole', 'removeRole'] as const;
export type RoleAction = (typeof ROLE_ACTIONS)[number];
/** What the selection bar offers. */
export type BulkBarAction = UserAction | RoleAction;

export const isRoleAction = (action: BulkBarAction): action is RoleAction =>
  (ROLE_ACTIONS as readonly string[]).includes(action);

/** A bulk action as it is run: the action, and for a role action the role chosen. */
export type BulkCommand = { action: UserAction } | { action: RoleAction; role: { id: number; name: string } };

const OPERATION: Record<UserAction, Pick<BulkInput, 'operation' | 'active'>> = {
  activate: { operation: 'setActive', active: true },
  deactivate: { operation: 'setActive', active: false },
  delete: { operation: 'delete' },
  restore: { operation: 'restore' },
  forceDelete: { operation: 'forceDelete' },
};

export const ACTION_PERMISSION: Readonly<Record<UserAction, Permission>> = {
  activate: BULK_PERMISSIONS.setActive,
  deactivate: BULK_PERMISSIONS.setActive,
  delete: BULK_PERMISSIONS.delete,
  restore: BULK_PERMISSIONS.restore,
  forceDelete: BULK_PERMISSIONS.forceDelete,
};

/** Each action's glyph, on the row menu and the selection bar alike. */
export const ACTION_ICONS: Readonly<Record<UserAction, LucideIcon>> = {
  activate: Power,
  deactivate: PowerOff,
  delete: Trash2,
  restore: RotateCcw,
  forceDelete: CircleX,
};

/** The selection bar's glyphs: the row actions', and the role actions'. */
export const BAR_ICONS: Readonly<Record<BulkBarAction, LucideIcon>> = {
  ...ACTION_ICONS,
  addRole: ShieldPlus,
  removeRole: ShieldMinus,
};

/** Losing data (or access) is worth a red button. */
export const DESTRUCTIVE_ACTIONS: ReadonlySet<BulkBarAction> = new Set(['delete', 'forceDelete']);

const FOR_LIVE: readonly UserAction[] = ['activate', 'deactivate', 'delete'];
const FOR_TRASHED: readonly UserAction[] = ['restore', 'forceDelete'];

const operationOf = (command: BulkCommand): Pick<BulkInput, 'operation' | 'active' | 'role_id'> =>
  'role' in command ? { operation: command.action, role_id: command.role.id } : OPERATION[command.action];

export function bulkInput(command: BulkCommand, ids: number[], dryRun: boolean): BulkRequest & { ids: number[] } {
  return { ...operationOf(command), ids, dryRun };
}

/** Every user a list query matches, less the ones left out: what "select all matching" acts on. */
export type UsersSelection = NonNullable<BulkRequest['selection']>;

export function selectionInput(
  command: BulkCommand,
  selection: UsersSelection,
  dryRun: boolean,
): BulkRequest & { selection: UsersSelection } {
  return { ...operationOf(command), selection, dryRun };
}

/**
 * POST /users/bulk answers a list of ids with its report: the report, or an error if the server
 * answered otherwise.
 */
export function bulkReportOf(answer: BulkReport | { job: Job }): BulkReport {
  if ('job' in answer) throw new Error('The server answered a list of ids with a job.');
  return answer;
}

/** …and a selection with the job it started: the job, or an error if it answered otherwise. */
export function bulkJobOf(answer: BulkReport | { job: Job }): Job {
  if (!('job' in answer)) throw new Error('The server answered a selection without a job.');
  return answer.job;
}

/**
 * The bulk actions that make sense for the rows a view can show, and that the caller may take:
 * live users can be (de)activated, deleted and given or stripped of a role, deleted ones
 * restored or purged.
 */
export function bulkActionsFor(trashed: TrashView | undefined, can: CapabilityMap): BulkBarAction[] {
  const fitting = trashed === 'only' ? FOR_TRASHED : trashed === 'with' ? USER_ACTIONS : FOR_LIVE;
  const roles = trashed === 'only' ? [] : ROLE_ACTIONS.filter((action) => can[BULK_PERMISSIONS[action]]);
  return [...fitting.filter((action) => can[ACTION_PERMISSION[action]]), ...roles];
}

/** Which of the server's per-record `actions` decides each list action. */
export const RECORD_ACTION: Readonly<Record<UserAction, UserRecordAction>> = {
  activate: 'setActive',
  deactivate: 'setActive',
  delete: 'delete',
  restore: 'restore',
  forceDelete: 'forceDelete',
};

/**
 * The actions of one row's menu: those that fit its state and that the server offers the caller
 * on this very user (permission, privilege ceiling and rules, decided server side), each with
 * the reason when it is unavailable.
 */
export function rowActionsFor(row: {
  is_active: boolean;
  deleted_at: string | null;
  actions: UserActions;
}): Array<{ action: UserAction; refusal: string | null }> {
  const fitting: UserAction[] = row.deleted_at
    ? ['restore', 'forceDelete']
    : [row.is_active ? 'deactivate' : 'activate', 'delete'];
  return fitting.flatMap((action) => {
    const state = row.actions[RECORD_ACTION[action]];
    return isOffered(state) ? [{ action, refusal: refusalOf(state) }] : [];
  });
}

export function canSeeTrash(can: CapabilityMap): boolean {
  return holdsTrashPermission((permission) => can[permission]);
}
