import type { InvitationState } from '@app/contracts';
import { pageMessages } from './messages';

/** The user page's sign-in access card: the invitation's state, the last sign-in, inviting, sending a reset link. */
export const userAccessMessages = {
  userAccess: {
    title: 'Sign-in access',
    description: 'How this person gets a password: an invitation, or a link to choose a new one.',
    invitation: 'Invitation',
    states: { pending: 'Pending', accepted: 'Accepted', expired: 'Expired' } satisfies Record<InvitationState, string>,
    neverInvited: 'Not invited',
    lastSignIn: 'Last signed in',
    neverSignedIn: 'Never',
    sent: 'Sent',
    expires: 'Link expires',
    expired: 'Link expired',
    invite: 'Invite',
    resend: 'Resend invitation',
    sendReset: 'Send password reset link',
    inviteTitle: (name: string) => `Invite ${name}?`,
    resendTitle: (name: string) => `Send ${name} a new invitation?`,
    inviteText: (email: string) =>
      `We will e-mail ${email} a single-use link to choose a password. An earlier invitation’s link stops working.`,
    resetTitle: (name: string) => `Send ${name} a password reset link?`,
    resetText: (email: string) =>
      `We will e-mail ${email} a single-use link to choose a new password. Their current password keeps working until they use it.`,
    invited: (name: string) => `Invitation sent to ${name}`,
    resetSent: (name: string) => `Password reset link sent to ${name}`,
    inviteInstead: 'Send an invitation instead of setting a password',
    inviteInsteadDescription:
      'The person gets an e-mail with a single-use link to choose their own password. Nobody else ever knows it.',
    createdInvited: (name: string) => `${name} was created and invited`,
    link: {
      inviteTitle: (name: string) => `Invitation link for ${name}`,
      resetTitle: (name: string) => `Password reset link for ${name}`,
      description: 'Mail is not set up on this server, so nothing was sent. Pass this link on yourself.',
      label: 'Link',
      warningTitle: 'Shown this once',
      warning:
        'Anyone with this link can set the account’s password until it expires or is used. Send it only to the person, through a safe channel.',
      expires: (when: string) => `The link works once, until ${when}.`,
      copy: 'Copy',
      copied: 'Copied',
      copyFailed: 'Copying was refused: the link is selected, copy it with your keyboard.',
      done: 'Done',
    },
  },
};

/** The sign-in access card's words (`m.userAccess`) with the shell's. */
export const useUserAccessMessages = pageMessages(userAccessMessages);
