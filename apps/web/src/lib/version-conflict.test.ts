import { describe, expect, it } from 'vitest';
import { conflictingFields, keepingEdits, sameFormValue } from './version-conflict';

const KEYS = ['name', 'description', 'permissions', 'active'] as const;
const opened = { name: 'support', description: 'Answers', permissions: ['a', 'b'], active: true };

describe('a form meeting the server’s newer version', () => {
  it('reads lists as sets and text without its outer spaces', () => {
    expect(sameFormValue(['b', 'a'], ['a', 'b'])).toBe(true);
    expect(sameFormValue(['a'], ['a', 'b'])).toBe(false);
    expect(sameFormValue(' x ', 'x')).toBe(true);
    expect(sameFormValue(true, false)).toBe(false);
  });

  it('lists each field where the form and the server differ, saying which the caller edited', () => {
    const mine = { ...opened, name: 'Support desk', permissions: ['b', 'a', 'c'] };
    const latest = { ...opened, description: 'Theirs', permissions: ['a'] };
    expect(conflictingFields(KEYS, { opened, mine, latest })).toEqual([
      { field: 'name', edited: true },
      { field: 'description', edited: false },
      { field: 'permissions', edited: true },
    ]);
  });

  it('leaves out a field the caller set to what the server now holds', () => {
    const mine = { ...opened, name: 'Same' };
    const latest = { ...opened, name: 'Same' };
    expect(conflictingFields(KEYS, { opened, mine, latest })).toEqual([]);
  });

  it('keeps the caller’s edited fields on the server’s version, and the server’s other fields', () => {
    const mine = { ...opened, name: 'Support desk' };
    const latest = { ...opened, description: 'Theirs', active: false };
    expect(keepingEdits(KEYS, { opened, mine, latest })).toEqual({ ...latest, name: 'Support desk' });
  });
});
