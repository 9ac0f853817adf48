import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { MAIL_RETRY_CAP_MS, mailRetryDelay } from '../../src/mail/mail-store.js';
import { renderMail } from '../../src/mail/render.js';
import { mailSettings, publicLink } from '../../src/mail/settings.js';

const MAIL_ON = {
  SMTP_URL: 'smtp://127.0.0.1:2525',
  MAIL_FROM: 'User administration <no-reply@example.com>',
  PUBLIC_URL: 'https://admin.example.com/',
};

const problemsOf = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
};

describe('mail configuration', () => {
  it('is off without SMTP_URL, links then pointing at this instance', () => {
    const settings = mailSettings(loadConfig({ PORT: '8080' }));
    expect(settings.enabled).toBe(false);
    expect(publicLink(settings, '/invite/abc')).toBe('http://localhost:8080/invite/abc');
  });

  it('is on with SMTP_URL, MAIL_FROM and PUBLIC_URL (its trailing slash dropped)', () => {
    const settings = mailSettings(loadConfig(MAIL_ON));
    expect(settings).toMatchObject({
      enabled: true,
      smtpUrl: 'smtp://127.0.0.1:2525',
      from: 'User administration <no-reply@example.com>',
      messageIdDomain: 'example.com',
      publicUrl: 'https://admin.example.com',
      maxAttempts: 10,
      retryBaseMs: 30_000,
    });
    expect(publicLink(settings, '/reset-password/xyz')).toBe('https://admin.example.com/reset-password/xyz');
  });

  it('needs MAIL_FROM and PUBLIC_URL when SMTP_URL is set', () => {
    expect(problemsOf({ SMTP_URL: 'smtp://127.0.0.1:2525' })).toEqual([
      'MAIL_FROM: must be set when SMTP_URL is (the From of every mail)',
      'PUBLIC_URL: must be set when SMTP_URL is (the links in mail point at it)',
    ]);
  });

  it('refuses a malformed SMTP_URL, MAIL_FROM or PUBLIC_URL without echoing a password', () => {
    const problems = problemsOf({
      SMTP_URL: 'http://user:hunter2-secret@mail.example.com',
      MAIL_FROM: 'not an address',
      PUBLIC_URL: 'ftp://admin.example.com',
    });
    expect(problems).toEqual([
      'SMTP_URL: must look like smtp://user:password@host:587 or smtps://host:465',
      'MAIL_FROM: must be an address, or a name and an address: "User administration <no-reply@example.com>"',
      'PUBLIC_URL: must be the address people open the product at, e.g. https://admin.example.com',
    ]);
    expect(problems.join('\n')).not.toContain('hunter2');
  });
});

describe('mail templates', () => {
  const vars = {
    name: 'Tom <b>&</b> "Jerry"',
    url: 'https://admin.example.com/invite/a1b2?x=1&y=2',
    expires_at: '2026-12-01T14:00:00.000Z',
  };

  it('write the invitation in plain text: greeting, link, lifetime, the product', () => {
    const { subject, text } = renderMail('invitation', vars);
    expect(subject).toBe('You are invited to User administration');
    expect(text).toContain('Hello Tom <b>&</b> "Jerry",');
    expect(text).toContain('Accept the invitation:\nhttps://admin.example.com/invite/a1b2?x=1&y=2\n');
    expect(text).toContain('until 1 December 2026 at 14:00 UTC');
    expect(text).toContain('User administration');
  });

  it('escape every variable in the HTML body, the link included', () => {
    const { html } = renderMail('invitation', vars);
    expect(html).toContain('Hello Tom &lt;b&gt;&amp;&lt;/b&gt; &quot;Jerry&quot;,');
    expect(html).not.toContain('<b>&</b>');
    expect(html).toContain('href="https://admin.example.com/invite/a1b2?x=1&amp;y=2"');
    expect(html).toContain('<title>You are invited to User administration</title>');
  });

  it('write the password reset with its own words', () => {
    const { subject, text, html } = renderMail('password-reset', { ...vars, name: 'Ada' });
    expect(subject).toBe('Reset your User administration password');
    expect(text).toContain('Choose a new password:\nhttps://admin.example.com/invite/a1b2?x=1&y=2');
    expect(html).toContain('>Choose a new password</a>');
  });

  it('refuse a link that is not http(s) and a lifetime that is not a date', () => {
    expect(() => renderMail('invitation', { ...vars, url: 'javascript:alert(1)' })).toThrow(/http/);
    expect(() => renderMail('invitation', { ...vars, url: '/relative' })).toThrow(/absolute/);
    expect(() => renderMail('invitation', { ...vars, expires_at: 'soon' })).toThrow(/ISO 8601/);
  });
});

describe('mail retries', () => {
  it('wait twice as long after each failed attempt, up to an hour, within ±25 %', () => {
    const settings = { retryBaseMs: 30_000 };
    expect([1, 2, 3, 4].map((n) => mailRetryDelay(n, settings, () => 0.5))).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(mailRetryDelay(30, settings, () => 0.5)).toBe(MAIL_RETRY_CAP_MS);
    expect(mailRetryDelay(1, settings, () => 0)).toBe(22_500);
    expect(mailRetryDelay(1, settings, () => 0.999_999)).toBeCloseTo(37_500, -1);
  });
});
