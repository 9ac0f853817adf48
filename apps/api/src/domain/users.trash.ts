/** The actions that act on a user in the trash; every other action acts on a live one. */
const ON_TRASHED: ReadonlySet<string> = new Set(['restore', 'forceDelete']);

export interface TrashRefusal {
  code: 'NOT_FOUND' | 'NOT_DELETED';
  message: string;
}

/**
 * Whether a user's place (live or in the trash) fits an action: restoring and erasing take a
 * deleted user (a live one: NOT_DELETED), everything else a live one (a deleted one: NOT_FOUND,
 * restore it first). The one sentence for each, for every door: single routes, bulk, the row
 * actions, the CLI.
 */
export function trashRefusal(action: string, user: { name: string; deleted: boolean }): TrashRefusal | null {
  if (ON_TRASHED.has(action)) {
    return user.deleted ? null : { code: 'NOT_DELETED', message: `${user.name} is not deleted.` };
  }
  return user.deleted ? { code: 'NOT_FOUND', message: `${user.name} is deleted: restore the account first.` } : null;
}
