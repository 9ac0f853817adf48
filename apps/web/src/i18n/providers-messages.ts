import { pageMessages } from './messages';

/** The single sign-on providers' settings (`/settings/sign-in`), for holders of `auth.manage`. */
export const providersMessages = {
  providers: {
    nav: 'Sign-in',
    title: 'Single sign-on',
    subtitle: 'OpenID Connect providers people can sign in with, shown as buttons on the sign-in page.',
    add: 'Add provider',
    loadFailed: 'The providers could not be loaded',
    emptyTitle: 'No providers yet',
    emptyDescription:
      'Add your organisation’s identity provider (Keycloak, Okta, Entra ID…) to offer “Sign in with …”.',
    edit: 'Edit',
    delete: 'Delete',
    domains: (list: string[]) => `Domains: ${list.join(', ')}`,
    createsAccounts: 'Creates accounts at first sign-in',
    matchesAccounts: 'Signs in existing accounts only',
    deleteTitle: (name: string) => `Delete “${name}”?`,
    deleteDescription: 'Its button leaves the sign-in page. People who signed in with it keep their accounts.',
    deleted: (name: string) => `“${name}” was deleted.`,
    newTitle: 'Add a provider',
    editTitle: (name: string) => `Edit “${name}”`,
    saved: (name: string) => `“${name}” was saved.`,
    save: 'Save provider',
    cancel: 'Cancel',
    back: 'Single sign-on',
  },
  providerForm: {
    name: 'Button name',
    nameDescription: 'Shown on the sign-in page as “Sign in with …”.',
    issuer: 'Issuer URL',
    issuerDescription: 'Its discovery document (/.well-known/openid-configuration) is read when you save.',
    clientId: 'Client id',
    clientSecret: 'Client secret',
    clientSecretSet: 'A secret is stored. It is never shown; type a new one to replace it.',
    clientSecretNew: 'Given by the provider for this application. Stored sealed, never shown again.',
    replaceSecret: 'Replace secret',
    keepSecret: 'Keep the stored secret',
    domains: 'Allowed e-mail domains',
    domainsDescription: 'One per line or separated by commas, e.g. example.com. Only these may sign in.',
    createUsers: 'Create accounts at first sign-in',
    createUsersDescription: 'Someone from an allowed domain without an account here gets one, with the roles below.',
    defaultRoles: 'Roles for new accounts',
    defaultRolesText: 'Roles for new accounts (names, separated by commas)',
    redirectUri: 'Redirect URI to register at the provider',
  },
};

/** The providers' pages' words (`m.providers`, `m.providerForm`) with the shell's. */
export const useProvidersMessages = pageMessages(providersMessages);
