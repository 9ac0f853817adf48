import { ERROR_CODES, ERRORS, type ErrorCode, ProblemSchema } from '@app/contracts';
import { TOKEN_PREFIX } from '../../src/auth/api-tokens.js';
import { PASSWORD } from '../support/given.js';
import { WEBHOOK_SECRET_PREFIX } from '../support/secrets.js';
import { withoutRevealedSecret } from './fuzz-reveals.js';
import { SCIM_GENERIC_STATUSES, scimErrorShape } from './fuzz-scim-oracle.js';

/**
 * What must hold of every answer the fuzzer gets, whatever it sent: never a 5xx (503 included:
 * the database is up), under 2 s, no stack trace, SQL, password, hash, token or session id in
 * the body, and an error in the contract's shape with one of the contract's codes.
 */

export const TIME_LIMIT_MS = 2_000;

const CODES = new Set<string>(ERROR_CODES);
/** Every status the contract names for an error, less the two that mean the server failed. */
const ERROR_STATUSES = new Set<number>(
  Object.values(ERRORS)
    .map((e) => e.status)
    .filter((s) => s < 500),
);
// 202: a submission (a job, an invitation) accepted for work that goes on after the answer (SPEC §14).
// 302: a browser navigation sent on (single sign-on's start and callback), with no body.
const SUCCESS_STATUSES = new Set([200, 201, 202, 204, 302]);

/** Text no answer may contain. Each is matched case-sensitively, so English prose cannot trip it. */
const LEAKS: ReadonlyArray<[string, RegExp]> = [
  ['stack frame', /\n\s+at \S/],
  ['stack frame', /\bat (?:async )?[\w$.<>[\]]+ \((?:file:\/\/|\/|node:)[^)]*:\d+:\d+\)/],
  ['source line', /[\w-]+\.(?:ts|js|mjs|cjs):\d+/],
  ['node_modules path', /node_modules/],
  ['SQL', /\bSELECT\b[^"]{1,200}?\bFROM\b/],
  ['SQL', /\bINSERT INTO\b/],
  ['SQL', /\bUPDATE\s+`?\w+`?\s+SET\b/],
  ['SQL', /\bDELETE FROM\b/],
  ['SQL', /\bSQL syntax\b|\bSQLITE_[A-Z]+|\bsqlite3?\b|\bmysql2?\b|\bMariaDB\b/],
  ['SQL', /\bER_[A-Z_]{3,}\b/],
  ['ORM', /\bSequelize\w*/],
  ['password hash', /scrypt\$/],
  ['API token', new RegExp(`${TOKEN_PREFIX}[A-Za-z0-9_-]{20,}`)],
  ['webhook secret', new RegExp(`${WEBHOOK_SECRET_PREFIX}[A-Za-z0-9+/]{24,}`)],
  ['password-reset link', /\/reset-password\/[A-Za-z0-9_-]{43}/],
  ['invitation link', /\/invite\/[A-Za-z0-9_-]{43}/],
];

export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** Bytes for a file (an XLSX is a zip), text otherwise. */
  body?: string | Buffer | undefined;
}

export interface Answer {
  status: number;
  contentType: string;
  body: string;
  setCookie: string[];
  ms: number;
}

function decoded(url: string): string {
  try {
    return decodeURIComponent(url.replace(/\+/g, ' '));
  } catch {
    return url;
  }
}

/** Everything the caller sent, as text, so a value the product merely echoes is not called a leak. */
function sentText(req: SentRequest): string {
  const body = typeof req.body === 'string' ? req.body : (req.body?.toString('latin1') ?? '');
  return [decoded(req.url), req.url, body, ...Object.values(req.headers)].join('\n');
}

/** Leaks in `body`: the patterns above, unless the matched text came from the request itself. */
export function leaksIn(body: string, req: SentRequest, secrets: Iterable<string>): string[] {
  const found: string[] = [];
  const sent = sentText(req);
  for (const [what, pattern] of LEAKS) {
    const m = pattern.exec(body);
    if (m && !sent.includes(m[0])) found.push(`${what}: …${body.slice(Math.max(0, m.index - 40), m.index + 60)}…`);
  }
  // Never echoed, whatever was sent: the fuzzer puts the password only in password fields.
  if (body.includes(PASSWORD)) found.push('the test password');
  for (const secret of secrets) if (secret && body.includes(secret)) found.push('a session id or token');
  return found;
}

/** A problem+json body of the contract with the status it was sent with. */
function problemShape(answer: Answer): string[] {
  if (!/^application\/problem\+json\b/.test(answer.contentType)) {
    return [`an error as ${answer.contentType || 'no content type'}, not application/problem+json`];
  }
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return ['a problem+json body that is not JSON'];
  }
  const parsed = ProblemSchema.safeParse(body);
  if (!parsed.success) return [`a problem body outside the contract: ${parsed.error.message.slice(0, 200)}`];
  const { code, status } = parsed.data;
  const out: string[] = [];
  if (status !== answer.status) out.push(`problem status ${status} on a ${answer.status} answer`);
  if (ERRORS[code].status !== answer.status) out.push(`code ${code} (a ${ERRORS[code].status}) on a ${answer.status}`);
  return out;
}

interface TrpcError {
  error?: { message?: unknown; code?: unknown; data?: { code?: unknown; httpStatus?: unknown } };
}

function trpcErrorShape(item: TrpcError, status: number | null): string[] {
  const error = item.error;
  if (!error) return [];
  const data = error.data;
  if (typeof error.message !== 'string' || typeof error.code !== 'number' || !data) {
    return [`a tRPC error outside the envelope: ${JSON.stringify(item).slice(0, 200)}`];
  }
  if (typeof data.code !== 'string' || !CODES.has(data.code))
    return [`a tRPC error code outside the contract: ${data.code}`];
  const expected = ERRORS[data.code as ErrorCode].status;
  const out: string[] = [];
  if (data.httpStatus !== expected) out.push(`tRPC ${data.code} with httpStatus ${data.httpStatus}`);
  if (status !== null && status !== expected) out.push(`tRPC ${data.code} (a ${expected}) on a ${status} answer`);
  if (expected >= 500) out.push(`tRPC ${data.code}`);
  return out;
}

/** Every `{error: …}` inside a value, however deep (a streamed batch nests them in its chunks). */
function errorsIn(value: unknown, found: TrpcError[] = []): TrpcError[] {
  if (Array.isArray(value)) for (const item of value) errorsIn(item, found);
  else if (typeof value === 'object' && value !== null) {
    if ('error' in value) found.push(value as TrpcError);
    else for (const item of Object.values(value)) errorsIn(item, found);
  }
  return found;
}

/**
 * A streamed batch's chunks are `[id, status, [[value], ...refs]]`; a ref `["data", 0, n]` says
 * chunk n holds a call's data — a user's fields, or the OpenAPI document, whose schemas have
 * properties named `error` — which is no envelope to judge.
 */
function dataChunks(lines: unknown[]): Set<number> {
  const ids = new Set<number>();
  for (const line of lines) {
    const content = Array.isArray(line) ? line[2] : undefined;
    if (!Array.isArray(content)) continue;
    for (const ref of content.slice(1)) {
      if (Array.isArray(ref) && ref[0] === 'data' && typeof ref[2] === 'number') ids.add(ref[2]);
    }
  }
  return ids;
}

const isDataChunk = (line: unknown, data: ReadonlySet<number>) =>
  Array.isArray(line) && typeof line[0] === 'number' && data.has(line[0]);

/**
 * tRPC's envelope: one `{result}|{error}`, or a batch of them. Asked for a stream
 * (`trpc-accept: application/jsonl`), a batch answers 200 and JSON lines whose chunks carry
 * each call's result or error: every error there must be in the envelope too.
 */
function trpcShape(req: SentRequest, answer: Answer, batch: boolean): string[] {
  if (answer.status === 204 || answer.body === '') return [];
  if (batch && req.headers['trpc-accept'] === 'application/jsonl' && answer.status === 200) {
    try {
      const lines = answer.body
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as unknown);
      const data = dataChunks(lines);
      return errorsIn(lines.filter((line) => !isDataChunk(line, data))).flatMap((item) => trpcErrorShape(item, null));
    } catch {
      return ['a streamed tRPC answer that is not JSON lines'];
    }
  }
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return [`a tRPC answer that is not JSON (${answer.contentType})`];
  }
  if (Array.isArray(body)) {
    // A batch's items each carry their own status; the answer's is theirs, or 207 when they differ.
    return body.flatMap((item) => trpcErrorShape(item as TrpcError, null));
  }
  return trpcErrorShape(body as TrpcError, batch && answer.status === 207 ? null : answer.status);
}

export interface Verdict {
  /** Which door's error shape the answer must have (the SCIM door's: fuzz-scim-oracle.ts). */
  door: 'rest' | 'trpc' | 'scim';
  /** REST: the operation's procedure (its operationId), for the secrets some show once. */
  procedure?: string;
  /** REST: the statuses the operation documents; answers outside them (and the generic request-shape ones) fail. */
  documented?: ReadonlySet<number>;
  batch?: boolean;
  /**
   * Set when the request's free text holds a character the text rule refuses (fuzz-text.ts):
   * where, and which. Such a request is refused, never answered 2xx.
   */
  refusedText?: string;
  /** A fixed case's own answer: the statuses it must get and no other. */
  expected?: ReadonlySet<number>;
}

/** Every way `answer` breaks the properties; empty when it holds them all. */
export function judge(req: SentRequest, answer: Answer, verdict: Verdict, secrets: Iterable<string>): string[] {
  const out: string[] = [];
  const { status } = answer;
  if (status >= 500) out.push(`status ${status}`);
  else if (
    verdict.door !== 'scim' &&
    !ERROR_STATUSES.has(status) &&
    !SUCCESS_STATUSES.has(status) &&
    !(verdict.batch && status === 207)
  ) {
    out.push(`status ${status} is not one of the contract's`);
  }
  if (answer.ms >= TIME_LIMIT_MS) out.push(`took ${Math.round(answer.ms)} ms`);
  if (verdict.expected && !verdict.expected.has(status)) {
    out.push(`status ${status}, where this case must get ${[...verdict.expected].join(' or ')}`);
  }
  if (verdict.refusedText && status >= 200 && status < 300) {
    out.push(`answered ${status} to free text the text rule refuses (${verdict.refusedText})`);
  }
  const cookieSessions = answer.setCookie.flatMap((c) => /^sid=([^;]+)/.exec(c)?.[1] ?? []);
  out.push(...leaksIn(withoutRevealedSecret(req, answer, verdict), req, [...secrets, ...cookieSessions]));
  if (verdict.door === 'scim') {
    if (status >= 400 && req.method !== 'HEAD') out.push(...scimErrorShape(answer));
    if (verdict.documented && !verdict.documented.has(status) && !SCIM_GENERIC_STATUSES.includes(status)) {
      out.push(`status ${status} is not documented for this operation (${[...verdict.documented].join(', ')})`);
    }
  } else if (verdict.door === 'rest') {
    // A HEAD answer has no body to judge.
    if (status >= 400 && req.method !== 'HEAD') out.push(...problemShape(answer));
    // 400, 413 and 415 are about the request's form (URL, size, media type), possible on any route;
    // so is the same-origin check's 403 for a state-changing request a browser marks cross-site.
    const crossSite =
      !['GET', 'HEAD', 'OPTIONS'].includes(req.method) &&
      (/^(cross|same)-site$/.test(req.headers['sec-fetch-site'] ?? '') || req.headers.origin !== undefined);
    const generic = [400, 413, 415, ...(crossSite ? [403] : [])];
    if (verdict.documented && !verdict.documented.has(status) && !generic.includes(status)) {
      out.push(
        `status ${status} is not documented for this operation (${[...verdict.documented].join(', ')}); the answer: ${answer.body.slice(0, 300)}`,
      );
    }
  } else {
    out.push(...trpcShape(req, answer, verdict.batch ?? false));
  }
  return out;
}

/** The running tally the closing line reports. */
export class Tally {
  requests = 0;
  /** Requests sent a second time because the first answer was slow. */
  retried = 0;
  serverErrors = 0;
  slowest = 0;
  /** The route and answer of the slowest request, so a slow one can be looked into. */
  slowestWhat = '';
  totalMs = 0;
  readonly statuses = new Map<number, number>();
  readonly byTarget = new Map<string, number>();
  /** `target status` → count: what each route answered, for FUZZ_SURVEY's report. */
  readonly byTargetStatus = new Map<string, number>();
  readonly byCaller = new Map<string, number>();

  add(target: string, caller: string, answer: Answer) {
    this.requests += 1;
    if (answer.status >= 500) this.serverErrors += 1;
    if (answer.ms > this.slowest) {
      this.slowest = answer.ms;
      this.slowestWhat = `${target} ${answer.status}`;
    }
    this.totalMs += answer.ms;
    this.statuses.set(answer.status, (this.statuses.get(answer.status) ?? 0) + 1);
    this.byTarget.set(target, (this.byTarget.get(target) ?? 0) + 1);
    const key = `${target} ${answer.status}`;
    this.byTargetStatus.set(key, (this.byTargetStatus.get(key) ?? 0) + 1);
    this.byCaller.set(caller, (this.byCaller.get(caller) ?? 0) + 1);
  }

  merge(other: Tally) {
    this.requests += other.requests;
    this.retried += other.retried;
    this.serverErrors += other.serverErrors;
    if (other.slowest > this.slowest) {
      this.slowest = other.slowest;
      this.slowestWhat = other.slowestWhat;
    }
    this.totalMs += other.totalMs;
    for (const [s, n] of other.statuses) this.statuses.set(s, (this.statuses.get(s) ?? 0) + n);
    for (const [t, n] of other.byTarget) this.byTarget.set(t, (this.byTarget.get(t) ?? 0) + n);
    for (const [c, n] of other.byCaller) this.byCaller.set(c, (this.byCaller.get(c) ?? 0) + n);
  }

  line(label: string): string {
    const n = (x: number) => x.toLocaleString('en-US').replace(/,/g, ' ');
    const statuses = [...this.statuses]
      .sort(([a], [b]) => a - b)
      .map(([s, c]) => `${s}: ${n(c)}`)
      .join(', ');
    const retried = this.retried ? ` (${this.retried} slow once, sent again)` : '';
    return `${label}: ${n(this.requests)} requests, ${this.serverErrors} × 5xx, slowest ${Math.round(this.slowest)} ms${this.slowestWhat ? ` (${this.slowestWhat})` : ''} (mean ${(this.totalMs / Math.max(1, this.requests)).toFixed(1)})${retried}, statuses {${statuses}}`;
  }
}

/**
 * The fewest requests each of `targets` must have had for a run of `sent` to count as covering
 * them all: a twelfth of an even share. Each target is drawn at random, so its count varies
 * from run to run; at a fifth of the share, one of 91 procedures fell under it about once in 60
 * runs at MySQL's half count (jobs.list: 3 with an even share of about 17). A twelfth still fails
 * a target the generators leave out or starve, while a fair draw falls under it far more rarely
 * (the tRPC fuzzer at MySQL's count: need 2 against about 17, once in some 15 000 runs).
 */
export const coverageFloor = (sent: number, targets: number): number => Math.floor(sent / targets / 12);
