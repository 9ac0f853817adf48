import { BULK_PERMISSIONS, type UserListRow, type UsersListResult } from '@app/contracts';
import { MailPlus, ShieldMinus, ShieldPlus, Tags } from 'lucide-react';
import { lazy } from 'react';
import type { Messages } from '../../../i18n/messages';
import type {
  BulkAction,
  BulkAnswerFacts,
  BulkCommand,
  BulkDeclaration,
} from '../../../lib/resource-list/bulk-actions';
import { bulkJobs } from '../../jobs/job-watch';
import { useUserNames } from './use-user-names';
import { ACTION_ICONS, DESTRUCTIVE_ACTIONS, type UserAction } from './user-actions';
import type { UsersBulkOperation, UsersListState } from '../../../lib/users-query/users-list-state';

// The role picker loads when first asked for: the users list's own bundle stays within its budget.
const AddRoleStep = lazy(() => import('./role-picker').then((m) => ({ default: m.AddRoleStep })));
const RemoveRoleStep = lazy(() => import('./role-picker').then((m) => ({ default: m.RemoveRoleStep })));
// So does the attribute step, and with it the value judge's pattern engine (RE2).
const SetAttributeStep = lazy(() => import('./attribute-set-step').then((m) => ({ default: m.SetAttributeStep })));

type Action = BulkAction<UsersBulkOperation, UsersListState, UsersListResult>;

// Which rows a view can show: live users unless it is the trash alone, deleted ones when it includes the trash.
const showsLive = (state: UsersListState) => state.filters.trashed !== 'only';
const showsTrash = (state: UsersListState) => state.filters.trashed !== undefined;

/**
 * The users list's bulk actions: what each sends, who may be offered it (the permission the bulk
 * route asks), in which view, and what the dialogs say. The list kit does the rest — selection,
 * the dry run (a report for picked users, a job for every match), the run and the hand-off.
 */
export function usersBulkActions(
  m: Messages,
): BulkDeclaration<UsersBulkOperation, UserListRow, UsersListState, UsersListResult> {
  const t = m.usersList.bulk;
  const change = (action: UserAction | 'invite', operation: UsersBulkOperation, fits: Action['fits']): Action => {
    const command: BulkCommand<UsersBulkOperation> = {
      operation,
      text: {
        verb: t[action],
        title: t.title[action],
        description: t.description[action],
        affected: t.affected[action],
        confirm: t.confirm[action],
        done: t.done[action],
        ...(action === 'invite'
          ? { notice: (answer: BulkAnswerFacts) => (answer.invitations?.mailed === false ? t.inviteUnmailed : null) }
          : {}),
      },
    };
    return {
      key: action,
      label: t[action],
      icon: action === 'invite' ? MailPlus : ACTION_ICONS[action],
      destructive: action !== 'invite' && DESTRUCTIVE_ACTIONS.has(action),
      permission: BULK_PERMISSIONS[operation.operation],
      fits,
      command,
    };
  };
  return {
    actions: [
      change('activate', { operation: 'setActive', active: true }, showsLive),
      change('deactivate', { operation: 'setActive', active: false }, showsLive),
      change('delete', { operation: 'delete' }, showsLive),
      change('restore', { operation: 'restore' }, showsTrash),
      change('forceDelete', { operation: 'forceDelete' }, showsTrash),
      // An invitation is for live accounts; who cannot take one (signed in before, inactive) is skipped.
      change('invite', { operation: 'invite' }, showsLive),
      {
        key: 'addRole',
        label: t.addRole,
        icon: ShieldPlus,
        permission: BULK_PERMISSIONS.addRole,
        fits: showsLive,
        ask: AddRoleStep,
      },
      {
        key: 'removeRole',
        label: t.removeRole,
        icon: ShieldMinus,
        permission: BULK_PERMISSIONS.removeRole,
        fits: showsLive,
        ask: RemoveRoleStep,
      },
      {
        key: 'setAttribute',
        label: m.usersList.attributes.bulk.action,
        icon: Tags,
        permission: BULK_PERMISSIONS.setAttribute,
        fits: showsLive,
        ask: SetAttributeStep,
      },
    ],
    names: { of: (row) => ({ name: row.name, detail: row.email }), useLookup: useUserNames },
    jobs: bulkJobs,
  };
}
