import fc from 'fast-check';
import { SCIM_MEDIA_TYPE, SCIM_SCHEMAS } from '@app/contracts';
import { SCIM_PATH_PREFIX } from '../../src/rest/openapi-scim.js';
import { percentEncode } from './fuzz-encoding.js';
import type { SchemaContext } from './fuzz-schema.js';
import { hostileString, type JsonSchema } from './fuzz-values.js';
import { type Caller, type FuzzRequest, ID_RANGE, printable, type Who } from './fuzz-world.js';
import { operationsOf, type RestOperation, rarely, restRequest } from './rest-requests.js';
import { scimFilter } from './scim-filters.js';

/**
 * Requests for the SCIM door, made by the REST fuzzer's own machinery (restRequest: path, query
 * and body from the OpenAPI document's schemas, hostile values, raw bodies, odd headers) and
 * then made SCIM's: the SCIM media type, filters from the grammar of scim-filters.ts, `If-Match`
 * headers, and values SCIM clients send (the right `schemas`, Entra's "Replace" and "False").
 * Every answer is judged as a SCIM answer (fuzz-scim-oracle.ts).
 */

type OpenApiDoc = Parameters<typeof operationsOf>[0];

/** The SCIM operations of the served document, their bodies read from `application/scim+json`. */
export function scimOperationsOf(doc: OpenApiDoc): RestOperation[] {
  return operationsOf(doc)
    .filter((op) => op.path.startsWith(SCIM_PATH_PREFIX))
    .map((op) => {
      const raw = doc.paths[op.path]?.[op.method.toLowerCase()] as {
        requestBody?: { content: Record<string, { schema: JsonSchema }> };
      };
      return { ...op, body: raw.requestBody?.content[SCIM_MEDIA_TYPE]?.schema ?? null };
    });
}

/** Callers by token (the door's only way in); a session cookie now and then, always refused. */
const scimCaller: fc.Arbitrary<Caller> = fc.record({
  who: fc.constantFrom<Who>('nobody', 'viewer', 'admin', 'admin'),
  via: fc.oneof(
    { weight: 12, arbitrary: fc.constant('token' as const) },
    { weight: 1, arbitrary: fc.constant('cookie' as const) },
  ),
});

/** A group id (`g` and the role's id): the seeded roles are the first few, so most aim at one that exists. */
const groupSegment = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 8 }).map((n) => `g${n}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('1', 'g0', 'g-1', 'g1.5', 'g01', 'G1', `g${'9'.repeat(40)}`, 'abc', '%20'),
  },
  { weight: 1, arbitrary: hostileString.filter((s) => s !== '' && !/^\.+$/.test(s)) },
);

const IF_MATCH = fc.constantFrom(
  '*',
  'W/"0"',
  'W/"1"',
  'W/"2"',
  '"1"',
  'W/"1", W/"2"',
  '',
  'garbage',
  'W/',
  '*, W/"1"',
);

const id = fc.integer(ID_RANGE).map(String);
const ENTERPRISE = SCIM_SCHEMAS.enterpriseUser;

/** Values by attribute name that SCIM clients send, so many requests get past the envelope. */
function scimHints(base: Record<string, fc.Arbitrary<unknown>>, urn: string): Record<string, fc.Arbitrary<unknown>> {
  return {
    ...base,
    schemas: fc.oneof(
      { weight: 8, arbitrary: fc.constant([urn]) },
      { weight: 1, arbitrary: fc.constantFrom([urn, ENTERPRISE], [urn.toUpperCase()], [], ['x'], urn) },
    ),
    userName: fc.oneof(
      base.email as fc.Arbitrary<unknown>,
      fc.constantFrom('AzureAD\\ada', 'ada@contoso.onmicrosoft.com'),
    ),
    name: fc.oneof(
      fc.record({ givenName: fc.constantFrom('Ada', ''), familyName: fc.constantFrom('Lovelace', ' ') }),
      fc.record({ formatted: fc.constantFrom('Grace Hopper', 'Zoë 😀', '') }),
    ),
    displayName: fc.constantFrom(
      'viewer',
      'admin',
      'manager',
      'Help Desk',
      'Sales – EMEA',
      ' help  DESK ',
      'a'.repeat(101),
      'a,b',
    ),
    externalId: fc.constantFrom('00u1', 'ext-2', '', null),
    active: fc.constantFrom(true, false, 'True', 'False', 'yes'),
    op: fc.constantFrom('add', 'replace', 'remove', 'Add', 'Replace', 'Remove', 'REPLACE', 'copy', ''),
    path: fc.constantFrom(
      'active',
      'name.familyName',
      'name.formatted',
      'displayName',
      'userName',
      'externalId',
      'emails',
      'emails[type eq "work"].value',
      'emails[primary eq true]',
      'members',
      'members[value eq "3"]',
      'members[value eq "x"]',
      'groups',
      'id',
      'meta.created',
      `${ENTERPRISE}:department`,
      `${ENTERPRISE}:manager.value`,
      'nickName',
      'emails[type eq "work"',
      'members[',
    ),
    value: fc.oneof(
      fc.constantFrom(false, 'False', { active: false }, { active: 'True' }, 'New Name', null),
      id,
      fc.array(fc.record({ value: id }), { minLength: 1, maxLength: 3 }),
      fc.constant([{ value: 'fresh@new.fuzz.test', type: 'work', primary: true }]),
    ),
    members: fc.array(fc.record({ value: fc.oneof(id, hostileString) }), { maxLength: 4 }),
  };
}

const URN_OF: Record<string, string> = {
  ScimUser: SCIM_SCHEMAS.user,
  ScimGroup: SCIM_SCHEMAS.group,
  ScimPatchOp: SCIM_SCHEMAS.patchOp,
  ScimSearchRequest: 'urn:ietf:params:scim:api:messages:2.0:SearchRequest',
};

const withoutFilter = (url: string) => {
  const [path, query = ''] = url.split('?');
  const kept = query.split('&').filter((pair) => pair !== '' && !/^filter(=|$)/.test(pair));
  return kept.length ? `${path}?${kept.join('&')}` : (path as string);
};

/** Requests for one SCIM operation, judged as the SCIM door's answers. */
export function scimRequest(op: RestOperation, ctx: SchemaContext): fc.Arbitrary<FuzzRequest> {
  const bodyRef = typeof op.body?.$ref === 'string' ? op.body.$ref.split('/').at(-1) : undefined;
  const urn = URN_OF[bodyRef ?? ''] ?? (op.path.includes('/Groups') ? SCIM_SCHEMAS.group : SCIM_SCHEMAS.user);
  const only = {
    caller: scimCaller,
    ...(op.path.startsWith(`${SCIM_PATH_PREFIX}/Groups/`) ? { segment: groupSegment } : {}),
  };
  const base = restRequest(op, { ...ctx, hints: scimHints(ctx.hints, urn) }, only);
  const hasFilter = op.queryParams.some((p) => p.name === 'filter');
  const takesIfMatch = ['PUT', 'PATCH', 'DELETE'].includes(op.method);
  return fc
    .record({
      req: base,
      filter: hasFilter ? fc.option(scimFilter, { freq: 3, nil: null }) : fc.constant(null),
      ifMatch: takesIfMatch ? rarely(IF_MATCH, 3) : fc.constant(null),
      scimMedia: fc.boolean(),
    })
    .map(({ req, filter, ifMatch, scimMedia }) => {
      const headers = { ...req.headers };
      if (scimMedia && headers['content-type'] === 'application/json') headers['content-type'] = SCIM_MEDIA_TYPE;
      if (ifMatch !== null) headers['if-match'] = ifMatch;
      let url = req.url;
      if (filter !== null) {
        url = withoutFilter(url);
        url += `${url.includes('?') ? '&' : '?'}filter=${percentEncode(filter)}`;
      }
      // A cookie is no way into the SCIM door: its 401 says nothing about the caller's session.
      const refusedWay = req.caller.via === 'cookie' || req.ownCredentials === true;
      const { refusedText: _rest, ...verdict } = req.verdict;
      return printable({
        ...req,
        url,
        headers,
        verdict: { ...verdict, door: 'scim' as const },
        ...(refusedWay ? { ownCredentials: true } : {}),
      });
    });
}
