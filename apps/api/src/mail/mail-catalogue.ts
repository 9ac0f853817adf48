/**
 * Every sentence the product mails, in one place: the subject, the lines before the link, the
 * link's label and the lines after it, per template. Bodies are built from these by render.ts
 * (plain text and HTML); nothing else writes words into a mail.
 */

/** The product's name as mail shows it (the SPA's `app.name`). */
export const PRODUCT_NAME = 'User administration';

/** A mail that carries one link with a lifetime: whom it greets, the link, when it stops working (ISO 8601). */
export interface LinkMailVars {
  name: string;
  url: string;
  expires_at: string;
}

/** The variables of each template. */
export interface MailTemplateVars {
  invitation: LinkMailVars;
  'password-reset': LinkMailVars;
}

export type MailTemplate = keyof MailTemplateVars;

/** A template's words; `until` is the link's end as people read it (`28 November 2026, 14:00 UTC`). */
export interface MailWords {
  subject: string;
  greeting: string;
  before: string[];
  action: string;
  after: string[];
}

export const MAIL_CATALOGUE: { [T in MailTemplate]: (vars: MailTemplateVars[T], until: string) => MailWords } = {
  invitation: (vars, until) => ({
    subject: `You are invited to ${PRODUCT_NAME}`,
    greeting: `Hello ${vars.name},`,
    before: [`An account has been made for you in ${PRODUCT_NAME}. Choose a password to sign in for the first time.`],
    action: 'Accept the invitation',
    after: [
      `This link works once, until ${until}.`,
      'If you did not expect this invitation, you can ignore this message: nothing happens until the link is used.',
    ],
  }),
  'password-reset': (vars, until) => ({
    subject: `Reset your ${PRODUCT_NAME} password`,
    greeting: `Hello ${vars.name},`,
    before: [`Someone asked to reset the password of your ${PRODUCT_NAME} account. Choose a new one here:`],
    action: 'Choose a new password',
    after: [
      `This link works once, until ${until}. Setting a new password signs you out everywhere else.`,
      'If you did not ask for this, ignore this message: your password stays as it is.',
    ],
  }),
};
