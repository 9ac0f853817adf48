import { describe, expect, it } from 'vitest';
import { inputJsonSchema } from '../json-schema';
import { accept, refuse } from '../test-support';
import { normaliseRoleName, RoleNameSchema, roleNameKey } from './role-name';
import { RoleCreateInputSchema } from './roles.create';
import { RoleUpdateInputSchema } from './roles.write';

const nameOf = (name: unknown) => accept(RoleCreateInputSchema, { name }).name;
const refusalOf = (name: unknown) => refuse(RoleCreateInputSchema, { name }).errors.name?.[0];

describe('a role name', () => {
  it.each([
    ['Help Desk', 'Help Desk'],
    ['Sales – EMEA', 'Sales – EMEA'],
    ['  Help   Desk  ', 'Help Desk'],
    ['Help\u00a0Desk', 'Help Desk'],
    ['Équipe d’accueil', 'Équipe d’accueil'],
    ['Cafe\u0301', 'Café'],
    ['営業部', '営業部'],
    ['R&D (Berlin) #2', 'R&D (Berlin) #2'],
    ['ops', 'ops'],
    ['support.tier-2_b', 'support.tier-2_b'],
    ['🚀 Launch', '🚀 Launch'],
  ])('accepts %j as %j', (typed, stored) => {
    expect(nameOf(typed)).toBe(stored);
  });

  it('accepts 100 characters and refuses 101', () => {
    expect(nameOf('x'.repeat(100))).toHaveLength(100);
    expect(nameOf(`${'x'.repeat(99)}😀`)).toBe(`${'x'.repeat(99)}😀`);
    expect(refusalOf('x'.repeat(101))).toBe('The name can be at most 100 characters long.');
  });

  it.each([[''], ['   '], [undefined]])('refuses a blank name %j', (name) => {
    expect(refusalOf(name)).toBe('Give the role a name.');
  });

  it.each([
    ['Help\tDesk', 'U+0009'],
    ['Help\nDesk', 'U+000A'],
    ['Help\u0000Desk', 'U+0000'],
    ['Help\u200bDesk', 'U+200B'],
    ['Help\u200dDesk', 'U+200D'],
    ['Help\u202eDesk', 'U+202E'],
    ['Help\u2066Desk', 'U+2066'],
    ['Help\ufe0fDesk', 'U+FE0F'],
    ['Help\u00adDesk', 'U+00AD'],
  ])('refuses %j, naming %s', (name, codePoint) => {
    expect(refusalOf(name)).toBe(
      `The name contains an invisible or control character (${codePoint}). Type it again without it.`,
    );
  });

  it.each([['Sales, EMEA'], ['Sales; EMEA'], ['Sales | EMEA']])(
    'refuses %j: an import cell separates names so',
    (name) => {
      expect(refusalOf(name)).toMatch(/cannot hold a comma, a semicolon or a vertical bar/);
    },
  );

  it('is the same rule for a rename', () => {
    expect(accept(RoleUpdateInputSchema, { name: ' Help  Desk ', permissions: [], version: 'v' }).name).toBe(
      'Help Desk',
    );
    expect(refuse(RoleUpdateInputSchema, { name: 'a\u202eb', permissions: [], version: 'v' }).errors.name).toHaveLength(
      1,
    );
  });

  it('shows the rule in the OpenAPI document: not blank, no refused character', () => {
    const json = inputJsonSchema(RoleNameSchema);
    expect(json).toMatchObject({ type: 'string', minLength: 1, maxLength: 100 });
    const parts = [json, ...((json.allOf as object[] | undefined) ?? [])] as Array<{
      pattern?: string;
      not?: { pattern: string };
    }>;
    const patterns = parts.flatMap((part) => (part.pattern ?? (part.not ? `not ${part.not.pattern}` : [])) || []);
    for (const [name, ok] of [
      ['Help Desk', true],
      ['Help\u202eDesk', false],
      ['Help\u200dDesk', false],
      ['Sales, EMEA', false],
    ] as const) {
      const matches = patterns.every((p) =>
        p.startsWith('not ') ? !new RegExp(p.slice(4), 'u').test(name) : new RegExp(p, 'u').test(name),
      );
      expect(matches, name).toBe(ok);
    }
  });
});

describe('a role name key', () => {
  it('is one for every case and spacing of a name', () => {
    const keys = new Set(['Help Desk', 'help  desk', 'HELP DESK', ' Help\u00a0Desk '].map(roleNameKey));
    expect([...keys]).toEqual(['help desk']);
  });

  it('is one for the composed and decomposed spellings of an accent', () => {
    expect(roleNameKey('CAFE\u0301')).toBe(roleNameKey('café'));
  });

  it('tells different names apart', () => {
    expect(roleNameKey('Help Desk')).not.toBe(roleNameKey('HelpDesk'));
    expect(roleNameKey('Sales – EMEA')).not.toBe(roleNameKey('Sales - EMEA'));
  });

  it('is the lower-cased stored name, so a name read back finds itself', () => {
    for (const typed of ['Help Desk', 'Sales – EMEA', 'Équipe', 'admin']) {
      const stored = normaliseRoleName(typed);
      expect(roleNameKey(stored)).toBe(stored.toLowerCase());
    }
  });
});
