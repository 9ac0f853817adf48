import { randomBytes } from 'node:crypto';

/**
 * A signing secret in the form the Standard Webhooks libraries take: `whsec_` and the base64 of
 * 32 random bytes. Stored as is, because the dispatcher must sign with it; shown only when made.
 */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
