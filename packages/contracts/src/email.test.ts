import { describe, expect, it } from 'vitest';
import { LoginInputSchema } from './auth';
import { canonicalEmail, hasInvisibleCharacter, INVISIBLE_IN_EMAIL_MESSAGE } from './email';
import { UserCreateInputSchema } from './users/users.forms';

const account = { name: 'Ann', password: 'long-enough', password_confirmation: 'long-enough' };

describe('canonical e-mails', () => {
  it('trims, folds compatibility forms (NFKC) and lower-cases', () => {
    expect(canonicalEmail('  Ann.Lee@Example.COM ')).toBe('ann.lee@example.com');
    // Full-width letters and the ligature "ﬁ" become their plain forms.
    expect(canonicalEmail('ＡＮＮ@ex\uFB01.com')).toBe('ann@exfi.com');
    // A decomposed accent (e + U+0308) and the precomposed one are one spelling.
    expect(canonicalEmail('vie\u0308wer@x.test')).toBe(canonicalEmail('viëwer@x.test'));
  });

  it.each([
    ['NUL', 'viewer@x.test\u0000'],
    ['zero-width space', 'viewer\u200b@x.test'],
    ['zero-width joiner', 'vie\u200dwer@x.test'],
    ['soft hyphen', 'vie\u00adwer@x.test'],
    ['right-to-left override', '\u202eviewer@x.test'],
    ['word joiner', 'viewer@\u2060x.test'],
    ['byte-order mark inside', 'view\ufeffer@x.test'],
    ['variation selector', 'viewer\ufe0f@x.test'],
    ['combining grapheme joiner', 'viewer\u034f@x.test'],
    ['Hangul filler', 'viewer\u3164@x.test'],
    ['line separator', 'viewer\u2028@x.test'],
    ['DEL', 'viewer\u007f@x.test'],
    ['tag character', 'viewer\u{E0041}@x.test'],
  ])('refuses an address with a %s, at login and in forms, with 422-worthy message', (_name, email) => {
    expect(hasInvisibleCharacter(email)).toBe(true);
    const login = LoginInputSchema.safeParse({ email, password: 'x' });
    expect(login.success).toBe(false);
    expect(login.error?.issues[0]?.message).toBe(INVISIBLE_IN_EMAIL_MESSAGE);
    expect(UserCreateInputSchema.safeParse({ ...account, email }).success).toBe(false);
  });

  it('stores what a form accepts in canonical form', () => {
    const parsed = UserCreateInputSchema.parse({ ...account, email: ' Ann@Example.com ' });
    expect(parsed.email).toBe('ann@example.com');
    expect(LoginInputSchema.parse({ email: 'ANN@example.com ', password: 'x' }).email).toBe('ann@example.com');
    // Surrounding whitespace, tabs and line breaks included, is trimmed before anything is judged.
    expect(LoginInputSchema.parse({ email: '\tann@example.com\r\n', password: 'x' }).email).toBe('ann@example.com');
  });

  it('refuses half a surrogate pair (found by the fuzzer: a 500 on MySQL at login), keeps whole emoji pairs', () => {
    expect(hasInvisibleCharacter('\udc00')).toBe(true);
    expect(hasInvisibleCharacter('ann\ud83d@example.com')).toBe(true);
    expect(hasInvisibleCharacter('ann\u{1F600}@example.com')).toBe(false);
    expect(LoginInputSchema.safeParse({ email: '\udc00', password: 'x' }).success).toBe(false);
  });

  it('keeps asking for an address when only spaces were typed', () => {
    const res = LoginInputSchema.safeParse({ email: '   ', password: 'x' });
    expect(res.error?.issues[0]?.message).toBe('Enter your e-mail address.');
  });
});
