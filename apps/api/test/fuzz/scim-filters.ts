import fc from 'fast-check';
import { HOSTILE_STRINGS, hostileString } from './fuzz-values.js';

/**
 * SCIM filters (RFC 7644 §3.4.2.2) from a small grammar: attribute paths the door maps and some it
 * does not, every operator in any case, `and`/`or`/`not`, grouping and value paths, with hostile
 * values in the comparisons; and now and then text the grammar cannot parse.
 */

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

const ATTRIBUTES = [
  'userName',
  'USERNAME',
  'externalId',
  'id',
  'active',
  'displayName',
  'name.familyName',
  'name.givenName',
  'name.formatted',
  'emails',
  'emails.value',
  'emails.type',
  'emails.primary',
  'groups',
  'groups.value',
  'members',
  'members.value',
  'meta.created',
  'meta.lastModified',
  'meta.resourceType',
  'urn:ietf:params:scim:schemas:core:2.0:User:userName',
  `${ENTERPRISE}:department`,
  `${ENTERPRISE}:manager.value`,
  // Not filterable: each must be 400 invalidFilter, never an empty 200.
  'title',
  'nickName',
  'password',
  'name.honorificPrefix',
  'a.b.c',
];

const OPERATORS = ['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le', 'EQ', 'Co', 'sW'];

/** A JSON string literal, as SCIM writes one, with any text inside. */
const quoted = (arb: fc.Arbitrary<string>) => arb.map((s) => JSON.stringify(s));

const comparisonValue = fc.oneof(
  { weight: 4, arbitrary: quoted(fc.constantFrom('seed-1@fuzz.test', 'Seed', 'fuzz.test', 'work', 'viewer', '1')) },
  { weight: 3, arbitrary: quoted(hostileString) },
  { weight: 1, arbitrary: quoted(fc.constantFrom('2024-01-01T00:00:00Z', '2024-01-01', 'not a date', '9999-99-99')) },
  { weight: 1, arbitrary: fc.constantFrom('true', 'false', 'null', 'True', '1', '-1', '1e999', '0x10') },
  { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  // Broken literals: unterminated, single-quoted, escapes that are not JSON's.
  { weight: 1, arbitrary: fc.constantFrom('"open', "'single'", '"\\x41"', '"\\u12"', '""""', '"\\"') },
);

const attribute = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...ATTRIBUTES) },
  { weight: 1, arbitrary: hostileString },
);

const comparison = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(attribute, fc.constantFrom(...OPERATORS), comparisonValue).map((p) => p.join(' ')) },
  { weight: 1, arbitrary: attribute.map((a) => `${a} pr`) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(attribute, fc.constantFrom('xx', 'in', '=', 'like', ''), comparisonValue)
      .map((p) => p.join(' ')),
  },
);

const { filter } = fc.letrec<{ filter: string }>((tie) => ({
  filter: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 5, arbitrary: comparison },
    { weight: 1, arbitrary: tie('filter').map((f) => `not (${f})`) },
    { weight: 1, arbitrary: tie('filter').map((f) => `(${f})`) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(tie('filter'), fc.constantFrom('and', 'or', 'AND', 'Or'), tie('filter'))
        .map(([a, op, b]) => `${a} ${op} ${b}`),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom('emails', 'members', 'groups', 'name', 'userName'),
          comparison,
          fc.constantFrom('', '.value', '.type', '.nope'),
        )
        .map(([a, c, sub]) => `${a}[${c}]${sub}`),
    },
  ),
}));

/** Text a parser must refuse without falling over: unbalanced, truncated, huge, deeply nested. */
const broken = fc.oneof(
  fc.constantFrom(
    '(',
    ')',
    'userName eq',
    'and',
    'not',
    'userName eq "a" and',
    'emails[type eq "work"',
    '[]',
    '""',
    ' ',
  ),
  fc.constantFrom(200, 999, 1000, 1001).map((n) => `userName eq "${'a'.repeat(Math.max(0, n - 14))}"`),
  fc.constantFrom(50, 400).map((n) => `${'('.repeat(n)}userName eq "a"${')'.repeat(n)}`),
  fc.constantFrom(50, 200).map((n) => Array.from({ length: n }, () => 'active eq true').join(' or ')),
  fc.constantFrom(30, 300).map((n) => `${'not ('.repeat(n)}active eq true${')'.repeat(n)}`),
  hostileString,
);

export const scimFilter: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: filter },
  { weight: 1, arbitrary: broken },
);
