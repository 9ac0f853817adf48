import { pageMessages } from './messages';
import { formatDate, relativeTime } from './dates';
import { provisioningMessages } from './provisioning-messages';
import { secretCopyStrings } from './secret-strings';

const day = (iso: string) => formatDate(iso, 'day', 'en');

/** The API tokens' strings: the account page, the create dialog and the user page's section. */
export const tokensMessages = {
  title: 'API tokens',
  subtitle: 'Tokens let scripts and other systems call the API as you.',
  create: 'New token',
  list: {
    label: 'API tokens',
    loading: 'Loading tokens…',
    errorTitle: 'The tokens could not be loaded',
    retry: 'Try again',
    allPermissions: 'All your permissions',
    allOwnerPermissions: 'All of the owner’s permissions',
    scopes: 'Permissions',
    created: 'Created',
    createdBy: (name: string) => `by ${name}`,
    createdByCli: 'from the command line',
    expires: 'Expires',
    never: 'Never',
    expired: 'Expired',
    expiresOn: (iso: string) => day(iso),
    lastUsed: 'Last used',
    neverUsed: 'Never used',
    usedAt: (iso: string) => relativeTime(iso, 'en'),
    fromIp: (ip: string) => `from ${ip}`,
    revoke: 'Revoke',
    revokeNamed: (name: string) => `Revoke ${name}`,
  },
  empty: {
    title: 'No API tokens yet',
    description:
      'A token lets a script, a scheduled job or another system call this API on your behalf, with your permissions or fewer. Send it in the Authorization header:',
    example: (origin: string) => `curl -H "Authorization: Bearer <your token>" ${origin}/api/users`,
    exampleLabel: 'Example request',
  },
  form: {
    title: 'New API token',
    titleFor: (name: string) => `New API token for ${name}`,
    description: 'Name it after what will use it, so you know which one to revoke later.',
    name: 'Name',
    namePlaceholder: 'Nightly HR sync',
    expiry: 'Expires',
    expiryChoices: {
      '30': 'In 30 days',
      '90': 'In 90 days',
      '365': 'In a year',
      custom: 'On a date I choose',
      never: 'Never',
    },
    expiryOn: (iso: string) => `The token stops working on ${day(iso)}.`,
    expiryNever: 'The token works until it is revoked. Prefer an expiry for anything that leaves this building.',
    customDate: 'Expiry date',
    customDateRequired: 'Choose the day the token stops working.',
    narrow: 'Limit its permissions',
    narrowDescription: 'Without a limit the token can do whatever its owner can do, now and later.',
    narrowDescriptionFor: (name: string) => `Without a limit the token can do whatever ${name} can do, now and later.`,
    scopes: 'Permissions for this token',
    scopesHint: 'Only permissions the owner holds can be given. A token never holds more than its owner.',
    noScopes: 'There are no permissions to give.',
    submit: 'Create token',
    cancel: 'Cancel',
    failedTitle: 'The token wasn’t created',
  },
  secret: {
    ...secretCopyStrings,
    title: 'Copy your new token',
    description: (name: string) => `The token “${name}” is ready.`,
    label: 'Token',
    warningTitle: 'You won’t see it again',
    warning: 'Store it somewhere safe now, such as a secret manager. If it is lost, revoke it and create another.',
    done: 'Done',
  },
  revoke: {
    title: (name: string) => `Revoke “${name}”?`,
    description: 'Anything using this token is refused from its next request. This can’t be undone.',
    confirm: 'Revoke token',
    cancel: 'Cancel',
    done: (name: string) => `“${name}” was revoked`,
  },
  created: (name: string) => `“${name}” was created`,
  provisioning: provisioningMessages,
  user: {
    title: 'API tokens',
    description: 'Tokens this user’s scripts and integrations use. Revoking one takes effect at once.',
    empty: 'This user has no API tokens.',
    create: 'New token',
    outrankedTitle: 'You can’t manage this user’s API tokens',
  },
};

/** The tokens pages' words (`m.tokens`) with the shell's. */
export const useTokensMessages = pageMessages({ tokens: tokensMessages });
export type TokensPageMessages = ReturnType<typeof useTokensMessages>;
