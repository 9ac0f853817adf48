import {
  type CapabilityMap,
  canSeeTrash as holdsTrashPermission,
  type UserActions,
  type UserRecordAction,
} from '@app/contracts';
import { CircleX, type LucideIcon, Power, PowerOff, RotateCcw, Trash2 } from 'lucide-react';
import { isOffered, refusalOf } from '../action-state';

/** What can be done to one user from the list (and, the same words, to many: `users-bulk-actions`). */
export type UserAction = 'activate' | 'deactivate' | 'delete' | 'restore' | 'forceDelete';

/** Each action's glyph, on the row menu and the selection bar alike. */
export const ACTION_ICONS: Readonly<Record<UserAction, LucideIcon>> = {
  activate: Power,
  deactivate: PowerOff,
  delete: Trash2,
  restore: RotateCcw,
  forceDelete: CircleX,
};

/** Losing data (or access) is worth a red button. */
export const DESTRUCTIVE_ACTIONS: ReadonlySet<UserAction> = new Set<UserAction>(['delete', 'forceDelete']);

/** Which of the server's per-record `actions` decides each list action. */
const RECORD_ACTION: Readonly<Record<UserAction, UserRecordAction>> = {
  activate: 'setActive',
  deactivate: 'setActive',
  delete: 'delete',
  restore: 'restore',
  forceDelete: 'forceDelete',
};

/**
 * The actions of one row's menu, as the server's `actions` for this very user decide them
 * (permission, record state, privilege ceiling and rules): those it offers, each with its reason
 * when unavailable. The server's status change flips the current status, so it reads as
 * "Activate" or "Deactivate"; whether an action fits a live or a deleted user is the server's to say.
 */
export function rowActionsFor(row: {
  is_active: boolean;
  actions: UserActions;
}): Array<{ action: UserAction; refusal: string | null }> {
  const candidates: UserAction[] = [row.is_active ? 'deactivate' : 'activate', 'delete', 'restore', 'forceDelete'];
  return candidates.flatMap((action) => {
    const state = row.actions[RECORD_ACTION[action]];
    return isOffered(state) ? [{ action, refusal: refusalOf(state) }] : [];
  });
}

/** The trash is a view of its own for a caller who may restore or purge (a page-level choice). */
export function canSeeTrash(can: CapabilityMap): boolean {
  return holdsTrashPermission((permission) => can[permission]);
}
