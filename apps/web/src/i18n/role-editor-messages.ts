import type { PermissionAction } from '@app/contracts';
import { formatCount } from './list-strings';

const users = (count: number) => `${formatCount(count)} ${count === 1 ? 'user' : 'users'}`;

/** "1,204 users gain users.export", "1 user loses users.delete". */
const impact = (count: number, verb: 'gain' | 'lose', permission: string) =>
  `${users(count)} ${count === 1 ? `${verb}s` : verb} ${permission}`;

/** The matrix's column headings: what each action is called, whatever resource it acts on. */
const ACTIONS: Record<PermissionAction, string> = {
  view: 'View',
  create: 'Create',
  update: 'Edit',
  delete: 'Delete',
  restore: 'Restore',
  forceDelete: 'Delete for good',
  export: 'Export',
  setActive: 'Activate',
  manage: 'Manage',
  'sensitive.view': 'View sensitive',
};

/**
 * The role editor's words (its pages and the permission matrix). They travel with those pages'
 * lazy chunks, not in the catalogue every route loads (`en`): the users list's JavaScript budget
 * has no room for another page's strings (as the Import page's, imports-messages.ts).
 */
export const roleEditorMessages = {
  /** The resource × action matrix of the role editor (and of a user's direct permissions). */
  matrix: {
    actions: ACTIONS as Record<string, string>,
    resource: 'Resource',
    all: 'All',
    allOf: (group: string) => `All ${group} permissions you may grant`,
  },
  newRole: 'New role',
  /** A role's page: what it is, who holds it, what can be done to it. */
  show: {
    noDescription: 'No description.',
    members: (count: number) => `Held by ${users(count)}`,
    edit: 'Edit',
    delete: 'Delete',
  },
  form: {
    newTitle: 'New role',
    newSubtitle: 'Bundle permissions under a name, then give the role to users.',
    editTitle: 'Edit role',
    loading: 'Loading role…',
    aboutTitle: 'Role',
    aboutDescription: 'How the role is called in lists and badges, and what it is for.',
    name: 'Name',
    namePlaceholder: 'Help Desk',
    nameHint:
      'Letters of any script, digits, spaces and punctuation other than , ; and |. Unique whatever its case and spacing.',
    description: 'Description',
    descriptionPlaceholder: 'Answers customers and resets their passwords',
    requireTwoFactor: 'Require two-factor authentication',
    requireTwoFactorDescription:
      'Members must sign in with a code from an authenticator app. Those without one are asked to set it up at their next sign-in and can do nothing else until they have. API tokens are not affected.',
    permissionsTitle: 'Permissions',
    permissionsDescription:
      'What holders of the role may do. Permissions you do not hold yourself are locked: you can neither grant nor remove them.',
    permissionsLabel: 'Permissions the role grants',
    create: 'Create role',
    save: 'Save changes',
    created: 'Role created',
    saved: 'Role saved',
    failedTitle: 'The role couldn’t be saved',
    cannotEditTitle: 'You can’t edit this role',
    backToRole: 'Back to the role',
    catalogueError: 'The list of permissions couldn’t be loaded.',
    conflict: {
      title: 'Someone else changed this role while you were editing',
      reading: 'Reading their version…',
      unread: 'Their version couldn’t be read.',
      retry: 'Try again',
      caption: 'Fields where their saved version and your form differ',
      field: 'Field',
      theirs: 'Saved by them',
      mine: 'Yours',
      notEdited: 'Not edited: theirs is kept',
      noDifference: 'Your edits and their version agree: nothing differs.',
      empty: '(empty)',
      noPermissions: 'none',
      required: (required: boolean) => (required ? 'Required' : 'Not required'),
      permissionChanges: (added: readonly string[], removed: readonly string[]) =>
        [added.length > 0 ? `adds ${added.join(', ')}` : '', removed.length > 0 ? `removes ${removed.join(', ')}` : '']
          .filter(Boolean)
          .join('; ')
          .replace(/^./, (first) => first.toUpperCase()),
      keep: 'Reload keeping my edits',
      discard: 'Discard my edits',
      keptTitle: 'You are now editing their latest version, with your edits on top.',
      kept: 'Check the form, then save again.',
      discardedTitle: 'You are now editing their latest version.',
    },
  },
  /** What saving would do, asked of the server before saving. */
  preview: {
    title: 'Impact',
    description: 'Who would gain or lose what when you save, checked as you change the permissions.',
    checking: 'Checking who this change reaches…',
    unchanged: 'No permission changes yet: nobody gains or loses anything.',
    noMembers: 'Nobody holds this role yet, so nobody gains anything until it is given to users.',
    failed: 'The impact couldn’t be checked. Saving still works.',
    gain: (count: number, permission: string) => impact(count, 'gain', permission),
    lose: (count: number, permission: string) => impact(count, 'lose', permission),
    sentence: (parts: string[]) => `${parts.join('; ')}.`,
    firstUsers: (names: string[], rest: number) =>
      rest > 0 ? `${names.join(', ')} and ${formatCount(rest)} more` : names.join(', '),
    outranksTitle: (count: number) =>
      count === 1
        ? '1 user who manages accounts today would be outranked by a member of this role'
        : `${formatCount(count)} users who manage accounts today would be outranked by members of this role`,
    outranksBody: 'They could no longer edit those members.',
    heldTitle: (count: number) =>
      count === 1
        ? '1 member has no second factor yet: they will be asked to set one up at their next request'
        : `${formatCount(count)} members have no second factor yet: they will be asked to set one up at their next request`,
    heldBody:
      'Until they have, they can do nothing else. Members with one, or whom another role already requires to have one, are not counted.',
    released: (count: number) =>
      count === 1
        ? '1 member without a second factor will no longer be asked to set one up.'
        : `${formatCount(count)} members without a second factor will no longer be asked to set one up.`,
    refusedTitle: 'This change can’t be saved',
  },
  remove: {
    title: (name: string) => `Delete the role ${name}?`,
    description: 'The role and what it grants are removed. This cannot be undone.',
    members: (count: number, name: string) =>
      `${users(count)} ${count === 1 ? 'holds' : 'hold'} ${name} and will lose it, with the permissions it grants them.`,
    confirm: 'Delete role',
    impactTitle: 'What its members lose',
    impactChecking: 'Checking what its members lose…',
    impactFailed: 'What its members lose couldn’t be checked.',
    losesNothing: 'No permission: each one it grants, its members also hold another way.',
    typeName: (name: string) => `To confirm, type “${name}”`,
    typeNameHint: 'Case and spacing don’t matter.',
    failedTitle: 'The role couldn’t be deleted',
    done: (name: string) => `Role ${name} deleted`,
  },
};

/** One locale today; the hook is the seam where a locale switch would plug in (as `useMessages`). */
export function useRoleEditorMessages() {
  return roleEditorMessages;
}
