import {
  type Permission,
  PERMISSIONS,
  type UserActions,
  type UserEditResult,
  type UserSections,
  type UserShowActions,
  type UserShowResult,
} from '@app/contracts';
import { capabilities } from './trpc-mock';

type Granted = readonly Permission[] | 'all';

/**
 * The `actions` the server would send for a user in this state to a caller holding `granted`:
 * permission, then record state, then "only an inactive user may be deleted". Fixtures only; a
 * test about the ceiling or another rule passes the state it needs.
 */
export function actionsFor(
  user: { name?: string; is_active: boolean; deleted_at: string | null },
  granted: Granted = 'all',
): UserActions {
  const can = capabilities(granted);
  const name = user.name ?? 'The user';
  const state = (
    permission: Permission,
    applies: boolean,
    refusal: { code: 'NOT_FOUND' | 'NOT_DELETED'; message: string },
  ) =>
    !can[permission]
      ? { allowed: false, code: 'FORBIDDEN' as const, message: `You need the ${permission} permission to do this.` }
      : applies
        ? { allowed: true }
        : { allowed: false, ...refusal };
  const live = user.deleted_at === null;
  const deletedRefusal = { code: 'NOT_FOUND' as const, message: `${name} is deleted: restore the account first.` };
  const liveRefusal = { code: 'NOT_DELETED' as const, message: `${name} is not deleted.` };
  const remove = state('users.delete', live, deletedRefusal);
  return {
    update: state('users.update', live, deletedRefusal),
    setActive: state('users.setActive', live, deletedRefusal),
    delete:
      remove.allowed && user.is_active
        ? {
            allowed: false,
            code: 'NOT_INACTIVE',
            message: `${name} is active: deactivate the account before deleting it.`,
          }
        : remove,
    restore: state('users.restore', !live, liveRefusal),
    forceDelete: state('users.forceDelete', !live, liveRefusal),
  };
}

/**
 * The user page's `actions` the server would send for a user in this state to a caller holding
 * `granted`: the record's five, then invite / sendPasswordReset / resetTwoFactor by users.update,
 * the trash, then the account (active, signed in, a second factor stored). Fixtures only; the
 * ceiling is a test's own override.
 */
export function showActionsFor(
  user: {
    name?: string;
    is_active: boolean;
    deleted_at: string | null;
    last_sign_in_at: string | null;
    two_factor: { enrolled: boolean };
  },
  granted: Granted = 'all',
): UserShowActions {
  const name = user.name ?? 'The user';
  const refused = (code: 'FORBIDDEN' | 'NOT_FOUND' | 'NOT_ACTIVE' | 'ALREADY_SIGNED_IN', message: string) => ({
    allowed: false,
    code,
    message,
  });
  const gate = () =>
    !capabilities(granted)['users.update']
      ? refused('FORBIDDEN', 'You need the users.update permission to do this.')
      : user.deleted_at !== null
        ? refused('NOT_FOUND', `${name} is deleted: restore the account first.`)
        : null;
  const inactive = (what: string) =>
    user.is_active ? null : refused('NOT_ACTIVE', `${name} is not active: activate the account before ${what}.`);
  const signedIn =
    user.last_sign_in_at === null
      ? null
      : refused('ALREADY_SIGNED_IN', `${name} has already signed in: send a password reset instead of an invitation.`);
  const noFactor = user.two_factor.enrolled
    ? null
    : { allowed: false, code: 'TWO_FACTOR_NOT_ENROLLED' as const, message: 'This user has no second factor to reset.' };
  return {
    ...actionsFor(user, granted),
    invite: gate() ?? inactive('inviting them') ?? signedIn ?? { allowed: true },
    sendPasswordReset: gate() ?? inactive('sending a password reset') ?? { allowed: true },
    resetTwoFactor: gate() ?? noFactor ?? { allowed: true },
  };
}

/** The page `sections` the server would send for a user in this state to a caller holding `granted`. */
export function sectionsFor(user: { deleted_at: string | null }, granted: Granted = 'all'): UserSections {
  const can = capabilities(granted);
  const live = user.deleted_at === null;
  return { sessions: can['users.update'] && live, tokens: can['tokens.manage'] && live, history: can['audit.view'] };
}

/** A `users.show` answer; override what the test is about. */
export function userShow(item: Partial<UserShowResult['item']> = {}, granted: Granted = 'all'): UserShowResult {
  const base = {
    id: 42,
    name: 'Ann Lee',
    email: 'ann@example.com',
    is_active: true,
    created_at: '2024-03-01T09:30:00.000Z',
    updated_at: '2024-05-02T14:00:00.000Z',
    deleted_at: null,
    roles: [{ id: 2, name: 'manager' }],
    is_admin: false,
    permission_names: ['roles.view', 'users.export', 'users.setActive', 'users.update', 'users.view'],
    last_sign_in_at: null,
    two_factor: { enrolled: false, required: false },
    ...item,
  };
  return {
    item: {
      ...base,
      actions: item.actions ?? showActionsFor(base, granted),
      sections: item.sections ?? sectionsFor(base, granted),
    },
    meta: { loaded_relations: ['roles'], loaded_counts: [], loaded_appends: ['permission_names', 'is_admin'] },
  };
}

export const ROLE_OPTIONS = [
  { id: 1, name: 'admin', assignable: true },
  { id: 2, name: 'manager', assignable: true },
  { id: 3, name: 'viewer', assignable: true },
];

/** A `users.edit` answer. */
export function userEdit(
  item: Partial<UserEditResult['item']> = {},
  extra: {
    roles?: UserEditResult['options']['roles'];
    permissions?: UserEditResult['options']['permissions'];
    attributes?: UserEditResult['options']['attributes'];
    can?: Partial<UserEditResult['can']>;
  } = {},
): UserEditResult {
  return {
    item: {
      id: 42,
      name: 'Ann Lee',
      email: 'ann@example.com',
      is_active: true,
      created_at: '2024-03-01T09:30:00.000Z',
      updated_at: '2024-05-02T14:00:00.000Z',
      deleted_at: null,
      roles: [{ id: 2, name: 'manager' }],
      roles_ids: [2],
      permissions: [],
      version: 'v1',
      actions: actionsFor({ is_active: item.is_active ?? true, deleted_at: item.deleted_at ?? null }),
      ...item,
    },
    options: {
      roles: extra.roles ?? ROLE_OPTIONS,
      permissions: extra.permissions ?? PERMISSIONS.map((name) => ({ name, grantable: true })),
      attributes: extra.attributes ?? [],
    },
    can: { update: true, setActive: true, delete: true, restore: false, forceDelete: false, ...extra.can },
  };
}
