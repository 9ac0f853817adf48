import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import zlib from 'node:zlib';
import { TOKEN_PREFIX } from '../../src/auth/api-tokens.js';
import type { CaptureKind } from './secret-capture.js';
import { excerpt, findSecrets, type KnownSecrets, SECRET_LENGTH, type SecretKind, TEST_PASSWORDS } from './secrets.js';

/**
 * The procedures that show a secret once, by design (SPEC §12): the answer that creates the
 * secret carries it in one field, and nothing ever shows it again. That field of that answer is
 * the only place the scan lets such a secret be — on the REST door the route's own success
 * status (201 for a create), on the tRPC door a successful result — and only when all it holds
 * is a secret of that kind. The rest of that body, and every other answer, still counts. A
 * procedure that reveals a secret is added here; its route and status are read from the router.
 */
export interface SecretReveal {
  procedure: string;
  /** The JSON field of the answer (tRPC: of the result's data), dotted for a nested one. */
  field: string;
  secret: SecretKind;
  why: string;
}

export const SECRET_REVEALING_PROCEDURES: readonly SecretReveal[] = [
  { procedure: 'tokens.create', field: 'token', secret: 'token', why: 'a new API token, shown once' },
  { procedure: 'tokens.createFor', field: 'token', secret: 'token', why: 'a new API token, shown once' },
  {
    procedure: 'webhooks.create',
    field: 'secret',
    secret: 'webhook',
    why: "a new endpoint's signing secret, shown once",
  },
  {
    procedure: 'webhooks.rotateSecret',
    field: 'secret',
    secret: 'webhook',
    why: "an endpoint's new signing secret, shown once",
  },
  {
    procedure: 'passwordReset.send',
    field: 'url',
    secret: 'link',
    why: 'a reset link sent by an administrator while mail is off, for them to pass on',
  },
  {
    procedure: 'invitations.send',
    field: 'url',
    secret: 'link',
    why: 'an invitation link sent by an administrator while mail is off, for them to pass on',
  },
  {
    procedure: 'users.create',
    field: 'url',
    secret: 'link',
    why: 'the invitation link of an account created with invite: true while mail is off',
  },
  { procedure: 'twoFactor.start', field: 'secret', secret: 'totp', why: 'a TOTP secret, shown once at set-up' },
  {
    procedure: 'twoFactor.start',
    field: 'otpauth_url',
    secret: 'totp',
    why: 'the TOTP secret in its otpauth:// URL (the QR code), shown once at set-up',
  },
  {
    procedure: 'twoFactor.confirm',
    field: 'recovery_codes',
    secret: 'recovery',
    why: 'the ten recovery codes, shown once when two-factor sign-in is turned on',
  },
];

/** A REST route as the capture names it (`POST /api/users/:id/tokens`), its procedure and success status. */
export interface RouteOfProcedure {
  route: string;
  procedure: string;
  status: number;
}

/** Where the scan looks for the secrets it lets through: the list above and the router's REST routes. */
export interface RevealRules {
  reveals: readonly SecretReveal[];
  routes: readonly RouteOfProcedure[];
}

/** The REST routes of the app's router, read on demand: only the scan at the end of the run needs them. */
async function routerRoutes(): Promise<RouteOfProcedure[]> {
  const [{ appRouter }, { restRoutes, toFastifyPath }] = await Promise.all([
    import('../../src/app/app-router.js'),
    import('../../src/rest/routes.js'),
  ]);
  return restRoutes(appRouter).map((r) => ({
    route: `${r.rest.method} ${toFastifyPath(r)}`,
    procedure: r.procedurePath,
    status: r.rest.status ?? 200,
  }));
}

export interface Finding {
  where: 'response' | 'log' | 'audit';
  secret: SecretKind;
  excerpt: string;
  /** The test file, and for a response its request and status. */
  source: string;
}

export interface ScanReport {
  responses: number;
  logLines: number;
  auditRows: number;
  /** Zipped bodies (XLSX) cut at the capture's cap, so not scanned. */
  unreadable: number;
  capped: string[];
  findings: Finding[];
}

type Json = Record<string, unknown>;

/**
 * The text of every file in a zip (an XLSX export), read through its central directory, or
 * null when the zip is not whole (a body cut at the capture's size cap).
 */
export function unzipText(zip: Buffer): string | null {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd === -1 || eocd + 22 > zip.length) return null;
  const entries = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const parts: string[] = [];
  for (let i = 0; i < entries; i++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== 0x02014b50) return null;
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const local = zip.readUInt32LE(at + 42);
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    if (local + 30 > zip.length) return null;
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + size);
    parts.push((method === 8 ? zlib.inflateRawSync(data) : data).toString('utf8'));
  }
  return parts.join('\n');
}

async function* records(dir: string, kind: CaptureKind): AsyncGenerator<[string, Json]> {
  for (const name of fs.readdirSync(dir).filter((n) => n.startsWith(`${kind}-`) && n.endsWith('.jsonl'))) {
    const lines = readline.createInterface({ input: fs.createReadStream(path.join(dir, name), 'utf8') });
    for await (const line of lines) {
      if (line) yield [name, JSON.parse(line) as Json];
    }
  }
}

/** Blanks `field` of `data` when all it holds is a secret of `kind`: the one place a reveal may put it. */
function blankField(data: unknown, reveal: SecretReveal, known: KnownSecrets) {
  const keys = reveal.field.split('.');
  let node = data as Json | undefined;
  for (const key of keys.slice(0, -1)) node = node?.[key] as Json | undefined;
  const last = keys.at(-1) as string;
  const value = node?.[last];
  // A list of secrets (recovery codes) is blanked whole when each item is one of the kind.
  const texts = Array.isArray(value) ? value : [value];
  const hits = texts.flatMap((text) => (typeof text === 'string' ? findSecrets(text, known) : []));
  if (hits.length > 0 && hits.every((hit) => hit.kind === reveal.secret)) {
    (node as Json)[last] = '[revealed once]';
  }
}

/** Which answer a body is: a REST route's (its procedure, and whether it is that route's success) or a tRPC call's. */
export type AnswerOf =
  | { door: 'rest'; procedure: string | undefined; success: boolean }
  | { door: 'trpc'; url: string; status: number };

/** The procedures a tRPC URL names, in order (`/api/trpc/a,b?batch=1` → a, b); none when it cannot be read. */
export function trpcProcedures(url: string): string[] {
  const [path = ''] = url.split('?');
  try {
    return decodeURIComponent(path.replace(/^\/api\/trpc\//, '')).split(',');
  } catch {
    return [];
  }
}

/** Blanks, anywhere in `value`, a reveal's field that holds nothing but a secret of its kind. */
function blankEverywhere(value: unknown, reveals: readonly SecretReveal[], known: KnownSecrets): void {
  if (Array.isArray(value)) for (const item of value) blankEverywhere(item, reveals, known);
  else if (typeof value === 'object' && value !== null) {
    const node = value as Record<string, unknown>;
    for (const [key, item] of Object.entries(node)) {
      const reveal = reveals.find((r) => r.field === key);
      const hits = typeof item === 'string' ? findSecrets(item, known) : [];
      if (reveal && hits.length > 0 && hits.every((h) => h.kind === reveal.secret)) node[key] = '[revealed once]';
      else blankEverywhere(item, reveals, known);
    }
  }
}

/**
 * A streamed tRPC batch (`trpc-accept: application/jsonl`, as httpBatchStreamLink asks): one JSON
 * value per line, each call's result spread over chunks that refer to each other by number. There
 * a reveal's field holding nothing but its kind of secret is blanked wherever it sits; null when
 * the body is not such a stream.
 */
function withoutRevealedInStream(body: string, reveals: readonly SecretReveal[], known: KnownSecrets) {
  const lines = body.split('\n').filter((line) => line !== '');
  if (lines.length < 2) return null;
  const values: unknown[] = [];
  for (const line of lines) {
    try {
      values.push(JSON.parse(line));
    } catch {
      return null;
    }
  }
  for (const value of values) blankEverywhere(value, reveals, known);
  return values.map((value) => JSON.stringify(value)).join('\n');
}

/**
 * The body with the revealed secret of a revealing procedure's successful answer blanked, in
 * its one field; any other body as it is. tRPC answers `{result: {data}}`, or a batch's list of
 * them in the order of the procedures in its URL (`/api/trpc/a,b?batch=1`), or that batch streamed.
 */
export function withoutRevealed(
  body: string,
  answer: AnswerOf,
  known: KnownSecrets,
  reveals: readonly SecretReveal[] = SECRET_REVEALING_PROCEDURES,
): string {
  // A procedure may reveal several fields (a TOTP set-up: the secret and its URL).
  const revealsOf = (procedure: string | undefined) => reveals.filter((r) => r.procedure === procedure);
  const calls =
    answer.door === 'rest'
      ? [answer.success ? revealsOf(answer.procedure) : []]
      : trpcProcedures(answer.url).map(revealsOf);
  if (!calls.some((c) => c.length > 0)) return body;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    if (answer.door === 'rest') return body;
    return withoutRevealedInStream(body, calls.flat(), known) ?? body;
  }
  if (answer.door === 'rest') for (const reveal of calls[0] ?? []) blankField(json, reveal, known);
  else {
    const batch = Array.isArray(json);
    const items: unknown[] = Array.isArray(json) ? json : answer.status === 200 ? [json] : [];
    items.forEach((item, i) => {
      const data = (item as { result?: { data?: unknown } } | null)?.result?.data;
      if (data && (batch || calls.length === 1)) for (const reveal of calls[i] ?? []) blankField(data, reveal, known);
    });
  }
  return JSON.stringify(json);
}

const TRPC_ROUTE = /^\/api\/trpc\//;

/** A captured answer as {@link withoutRevealed} reads it. */
function answerOf(record: Json, routes: ReadonlyMap<string, RouteOfProcedure>): AnswerOf {
  const route = typeof record.r === 'string' ? record.r : '';
  if (TRPC_ROUTE.test(route)) return { door: 'trpc', url: String(record.u ?? ''), status: Number(record.s) };
  const found = routes.get(`${record.m} ${route}`);
  return {
    door: 'rest',
    procedure: found?.procedure,
    success: found !== undefined && Number(record.s) === found.status,
  };
}

/** Reads what the capture wrote under `dir` and finds every secret in it. */
export async function scanCaptures(dir: string, rules?: RevealRules) {
  const reveals = rules?.reveals ?? SECRET_REVEALING_PROCEDURES;
  const routes = new Map((rules?.routes ?? (await routerRoutes())).map((r) => [r.route, r]));
  const randoms = new Map<string, 'session' | 'token'>();
  for await (const [, r] of records(dir, 'secrets')) {
    const value = String(r.v ?? '');
    const random = r.kind === 'token' && value.startsWith(TOKEN_PREFIX) ? value.slice(TOKEN_PREFIX.length) : value;
    // Only values of a real secret's shape: a test may send a made-up token such as `uat_nope`.
    if (random.length === SECRET_LENGTH) randoms.set(random, r.kind === 'token' ? 'token' : 'session');
  }
  const known: KnownSecrets = { passwords: TEST_PASSWORDS, randoms };
  const report: ScanReport = { responses: 0, logLines: 0, auditRows: 0, unreadable: 0, capped: [], findings: [] };
  const check = (where: Finding['where'], text: string, source: string) => {
    for (const hit of findSecrets(text, known)) {
      report.findings.push({ where, secret: hit.kind, excerpt: excerpt(text, hit), source });
    }
  };
  for await (const [file, r] of records(dir, 'responses')) {
    if (r.capped) report.capped.push(file);
    else {
      report.responses += 1;
      const source = `${r.f}: ${r.m} ${r.u} → ${r.s}`;
      if (typeof r.b === 'string') check('response', withoutRevealed(r.b, answerOf(r, routes), known, reveals), source);
      else if (typeof r.zip === 'string') {
        const text = unzipText(Buffer.from(r.zip, 'base64'));
        if (text === null) report.unreadable += 1;
        else check('response', text, source);
      }
    }
  }
  for await (const [file, r] of records(dir, 'logs')) {
    if (r.capped) report.capped.push(file);
    else {
      report.logLines += 1;
      check('log', String(r.l), String(r.f));
    }
  }
  for await (const [file, r] of records(dir, 'audit')) {
    if (r.capped) report.capped.push(file);
    else {
      report.auditRows += 1;
      check('audit', JSON.stringify(r.row), `${r.f}: ${r.t}`);
    }
  }
  return report;
}

const thousands = (n: number) => n.toLocaleString('en-US');

export function totalsLine(report: ScanReport): string {
  return (
    `secret scan: ${thousands(report.responses)} response bodies, ${thousands(report.logLines)} log lines, ` +
    `${thousands(report.auditRows)} audit rows, ${report.findings.length} secrets` +
    (report.capped.length ? ` (capped: ${report.capped.join(', ')})` : '') +
    (report.unreadable ? ` (${report.unreadable} XLSX bodies too large to unzip)` : '')
  );
}

export function findingsText(report: ScanReport, max = 200): string {
  const lines = report.findings
    .slice(0, max)
    .map((f) => `  ${f.where} · ${f.secret} · ${JSON.stringify(f.excerpt)} · ${f.source}`);
  if (report.findings.length > max) lines.push(`  … and ${report.findings.length - max} more`);
  return lines.join('\n');
}
