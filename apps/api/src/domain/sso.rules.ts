import type { SsoError } from '@app/contracts';

/** What a single sign-on is judged on, once the ID token itself has passed the client library's checks. */
export interface SsoFacts {
  /** The ID token's claims (issuer, audience, signature, nonce and expiry already checked). */
  claims: { email?: unknown; email_verified?: unknown; amr?: unknown };
  allowedDomains: readonly string[];
  createUsers: boolean;
  /** The account holding the token's e-mail, deleted ones included; null when none does. */
  account: { id: number; isActive: boolean; deleted: boolean } | null;
}

export type SsoDecision =
  | { refusal: SsoError }
  | { signIn: number; secondFactor: boolean }
  | { create: { email: string }; secondFactor: boolean };

/** `amr` values (RFC 8176) that say the provider asked for more than a password. */
const SECOND_FACTOR_METHODS = new Set(['mfa', 'otp', 'hwk']);

/** Whether the provider says the person passed a second factor: a role's two-factor rule is met by it. */
export function providerSecondFactor(amr: unknown): boolean {
  return Array.isArray(amr) && amr.some((m) => typeof m === 'string' && SECOND_FACTOR_METHODS.has(m));
}

/** The domain of an e-mail address, in lower case (after the last @: a quoted local part may hold one). */
export const emailDomain = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/**
 * Who a valid ID token signs in, in the order a person fixes them: the provider vouches for the
 * e-mail (`email_verified` exactly true: a missing claim is not a yes), its domain is one the
 * provider may sign in, then the account — live and active, or created when the provider creates
 * accounts. A deleted account is refused like an inactive one: it is not created again.
 */
export function judgeSso(facts: SsoFacts): SsoDecision {
  const { claims, account } = facts;
  const email = typeof claims.email === 'string' ? claims.email.trim() : '';
  if (claims.email_verified !== true || !email.includes('@')) return { refusal: 'sso_email_unverified' };
  if (!facts.allowedDomains.includes(emailDomain(email))) return { refusal: 'sso_domain' };
  const secondFactor = providerSecondFactor(claims.amr);
  if (!account) return facts.createUsers ? { create: { email }, secondFactor } : { refusal: 'sso_no_account' };
  if (account.deleted || !account.isActive) return { refusal: 'sso_inactive' };
  return { signIn: account.id, secondFactor };
}
