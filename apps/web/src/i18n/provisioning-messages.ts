import { secretCopyStrings } from './secret-strings';

/** "Connect an identity provider" (the tokens page): a provisioning token, the SCIM URL, Okta's and Entra's steps. */
export const provisioningMessages = {
  open: 'Connect an identity provider',
  form: {
    title: 'Connect an identity provider',
    description:
      'Okta, Microsoft Entra ID and other identity providers can create, update and deactivate accounts here over SCIM. First, a token for them to sign their requests with.',
    defaultName: 'SCIM provisioning',
    loading: 'Loading your permissions…',
    missingTitle: 'Some provisioning permissions aren’t yours to give',
    missing: 'A token never holds more than its owner, so the identity provider will be refused these:',
  },
  connect: {
    title: 'Connect your identity provider',
    description: (name: string) => `The token “${name}” is ready. Give your identity provider these two values.`,
    urlLabel: 'SCIM base URL',
    token: {
      ...secretCopyStrings,
      // Short: the button sits beside the value, on a phone too.
      copied: 'Copied',
      label: 'Token',
      warningTitle: 'The token is shown only this once',
      warning: 'Paste it into your identity provider now. If it is lost, revoke it and connect again.',
    },
    url: { ...secretCopyStrings, copied: 'Copied' },
    stepsTitle: 'Then, in your identity provider',
    okta: {
      title: 'Okta',
      steps: [
        'Applications → your app → Provisioning → Integration.',
        'SCIM connector base URL: the base URL above. Unique identifier field for users: userName.',
        'Authentication Mode: HTTP Header. Bearer token: the token above.',
        'Test Connector Configuration, then save.',
        'Provisioning → To App: enable Create Users, Update User Attributes and Deactivate Users.',
      ],
    },
    entra: {
      title: 'Microsoft Entra ID',
      steps: [
        'Enterprise applications → your app → Provisioning. Provisioning Mode: Automatic.',
        'Tenant URL: the base URL above. Secret Token: the token above.',
        'Test Connection, then save.',
        'Mappings: map userName from userPrincipalName (or mail).',
      ],
    },
    /** To the attributes page's SCIM card (holders of attributes.manage). */
    mapFields: 'Map enterprise fields onto your attributes',
    audit: 'Changes made over SCIM',
    newTab: '(opens in a new tab)',
    auditHint: 'Everything the identity provider changes is in the audit log, under the token’s name.',
    done: 'Done',
  },
};
