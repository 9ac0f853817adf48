import { describe, expect, it } from 'vitest';
import { judgeSso, providerSecondFactor, type SsoFacts } from '../../src/domain/sso.rules.js';

const facts = (over: Partial<SsoFacts> = {}): SsoFacts => ({
  claims: { email: 'ann@Example.com', email_verified: true },
  allowedDomains: ['example.com'],
  createUsers: false,
  account: { id: 7, isActive: true, deleted: false },
  ...over,
});

describe('who a valid ID token signs in', () => {
  it('signs the live, active account with the verified e-mail in', () => {
    expect(judgeSso(facts())).toEqual({ signIn: 7, secondFactor: false });
  });

  it('takes only email_verified: true as verified (missing, "true" or false are not)', () => {
    for (const email_verified of [undefined, 'true', false]) {
      expect(judgeSso(facts({ claims: { email: 'ann@example.com', email_verified } }))).toEqual({
        refusal: 'sso_email_unverified',
      });
    }
  });

  it('refuses a domain outside the list before it looks at the account', () => {
    expect(
      judgeSso(facts({ claims: { email: 'ann@example.com.evil.test', email_verified: true }, account: null })),
    ).toEqual({ refusal: 'sso_domain' });
  });

  it('refuses inactive and deleted accounts, and does not create a deleted one again', () => {
    expect(judgeSso(facts({ account: { id: 7, isActive: false, deleted: false } }))).toEqual({
      refusal: 'sso_inactive',
    });
    expect(judgeSso(facts({ createUsers: true, account: { id: 7, isActive: true, deleted: true } }))).toEqual({
      refusal: 'sso_inactive',
    });
  });

  it('creates an unknown person only when the provider creates accounts', () => {
    expect(judgeSso(facts({ account: null }))).toEqual({ refusal: 'sso_no_account' });
    expect(judgeSso(facts({ account: null, createUsers: true }))).toEqual({
      create: { email: 'ann@Example.com' },
      secondFactor: false,
    });
  });

  it('counts amr mfa, otp or hwk as a second factor, and nothing else', () => {
    expect(providerSecondFactor(['pwd', 'mfa'])).toBe(true);
    expect(providerSecondFactor(['otp'])).toBe(true);
    expect(providerSecondFactor(['hwk'])).toBe(true);
    expect(providerSecondFactor(['pwd'])).toBe(false);
    expect(providerSecondFactor('mfa')).toBe(false);
    expect(judgeSso(facts({ claims: { email: 'ann@example.com', email_verified: true, amr: ['mfa'] } }))).toEqual({
      signIn: 7,
      secondFactor: true,
    });
  });
});
