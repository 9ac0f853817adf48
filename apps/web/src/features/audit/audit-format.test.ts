import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en';
import { actionLabel, actorText, changesSummary, targetText, valueText, viaText } from './audit-format';

describe('audit wording', () => {
  it('names every recorded action in words, and an unknown one as stored', () => {
    expect(actionLabel('user.deactivate', en)).toBe('Deactivated a user');
    expect(actionLabel('users.bulk.forceDelete', en)).toBe('Bulk: permanently deleted users');
    expect(actionLabel('something.new', en)).toBe('something.new');
  });

  it('writes values as an administrator reads them', () => {
    expect(valueText('is_active', false, en)).toBe('Inactive');
    expect(valueText('is_active', true, en)).toBe('Active');
    expect(valueText('roles', ['admin', 'viewer'], en)).toBe('admin, viewer');
    expect(valueText('roles', [], en)).toBe('None');
    expect(valueText('name', null, en)).toBe('—');
    expect(valueText('record', 'erased', en)).toBe('Erased');
    expect(valueText('deleted_at', '2026-03-01T10:00:00.000Z', en)).toMatch(/Mar 1, 2026/);
    expect(valueText('email', 'ada@example.com', en)).toBe('ada@example.com');
  });

  it('sums up a change in one line: before → after for one field, the fields’ names for several', () => {
    expect(changesSummary({ changes: { is_active: { from: true, to: false } } }, en)).toBe('Status: Active → Inactive');
    expect(
      changesSummary({ changes: { name: { from: 'A', to: 'B' }, email: { from: 'a@x.io', to: 'b@x.io' } } }, en),
    ).toBe('Name, E-mail');
    expect(changesSummary({ changes: {} }, en)).toBe('');
  });

  it('names a change whose value the reader may not see, without a value', () => {
    const row = { changes: { 'attributes.level': { from: 2, to: 3 } }, hidden_changes: ['attributes.salary'] };
    expect(changesSummary(row, en)).toBe('level, salary (hidden)');
    expect(changesSummary({ changes: {}, hidden_changes: ['attributes.salary'] }, en)).toBe('salary (hidden)');
  });

  it('says who and through which door, also when the account or the token is gone', () => {
    const web = { kind: 'session', name: null } as const;
    expect(actorText({ actor_id: 3, actor_name: 'Ada', via: web }, en)).toBe('Ada');
    expect(actorText({ actor_id: 3, actor_name: null, via: web }, en)).toBe('User #3 (erased)');
    expect(actorText({ actor_id: null, actor_name: null, via: { kind: 'cli', name: null } }, en)).toBe('System');
    expect(actorText({ actor_id: null, actor_name: null, via: { kind: 'unknown', name: null } }, en)).toBe(
      'Someone not signed in',
    );
    expect(targetText({ target_names: { '5': 'Grace' } }, 5, en)).toBe('Grace');
    expect(targetText({ target_names: {} }, 6, en)).toBe('User #6 (erased)');
    expect(viaText({ kind: 'token', name: 'ci' }, en)).toBe('API token “ci”');
    expect(viaText({ kind: 'token', name: null }, en)).toBe('API token (since revoked)');
    expect(viaText({ kind: 'session', name: null }, en)).toBe('Web app');
  });
});
