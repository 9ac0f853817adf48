import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import zlib from 'node:zlib';
import { TOKEN_PREFIX } from '../../src/auth/api-tokens.js';
import type { CaptureKind } from './secret-capture.js';
import { excerpt, findSecrets, type KnownSecrets, SECRET_LENGTH, type SecretKind, TEST_PASSWORDS } from './secrets.js';

/**
 * Where a secret may appear by design, said precisely: the route that answers it, the JSON
 * field it sits in, and the kind of secret. The field is blanked before the body is scanned,
 * so anything else in that body still counts. The product answers no secret today: tokens are
 * created with the CLI (shown once on its output, which is not scanned here), and login sets
 * its session id in a cookie, never in a body. A route that shows a token once (SPEC §12,
 * POST /tokens) gets its entry here, e.g.
 * `{ route: 'POST /api/tokens', field: 'token', secret: 'token', why: 'shown once, by design' }`.
 */
export interface AllowedSecret {
  route: string;
  field: string;
  secret: SecretKind;
  why: string;
}

export const ALLOWED_SECRETS: readonly AllowedSecret[] = [];

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

/** The body with each allowed field of its route blanked, when that field holds its kind of secret. */
function withoutAllowed(record: Json, body: string, known: KnownSecrets, allowed: readonly AllowedSecret[]): string {
  const route = `${record.m} ${record.r}`;
  const rules = allowed.filter((a) => a.route === route);
  if (rules.length === 0) return body;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return body;
  }
  for (const rule of rules) {
    const keys = rule.field.split('.');
    let node = json as Json | undefined;
    for (const key of keys.slice(0, -1)) node = node?.[key] as Json | undefined;
    const last = keys.at(-1) as string;
    const value = node?.[last];
    if (typeof value === 'string' && findSecrets(value, known).every((hit) => hit.kind === rule.secret)) {
      (node as Json)[last] = '[allowed]';
    }
  }
  return JSON.stringify(json);
}

/** Reads what the capture wrote under `dir` and finds every secret in it. */
export async function scanCaptures(dir: string, allowed: readonly AllowedSecret[] = ALLOWED_SECRETS) {
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
      if (typeof r.b === 'string') check('response', withoutAllowed(r, r.b, known, allowed), source);
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
