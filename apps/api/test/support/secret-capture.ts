import fs from 'node:fs';
import path from 'node:path';
import { pipeline, type Readable, Transform } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pino, { type Logger } from 'pino';
import { expect } from 'vitest';
import { SESSION_COOKIE } from '../../src/auth/sessions.js';
import type { Database } from '../../src/db/database.js';
import { createLogger } from '../../src/logger.js';

/**
 * What the API tests produce, written down for the secret scan (test/secret-scan.global-setup.ts):
 * every response body, log line and audit row, and the secrets the scan looks for that have no
 * recognisable form (session ids seen in a Set-Cookie, bearer tokens sent). On only when
 * SECRET_SCAN_DIR is set, which the global setup does for every `vitest run`.
 *
 * One JSON line per record in `<kind>-<pid>.jsonl`: each test process appends to its own files.
 */
export const SCAN_DIR_ENV = 'SECRET_SCAN_DIR';

export type CaptureKind = 'responses' | 'logs' | 'audit' | 'secrets';

/** Enough for any test's output; past it a file stops growing and says so in its last line. */
const FILE_CAP = 96 * 1024 * 1024;
/** A response body past this is cut: an export of thousands of rows repeats the same columns. */
const BODY_CAP = 256 * 1024;
/** An audit table past this is sampled from its start: bench-sized tables are not test output. */
const AUDIT_ROWS_CAP = 50_000;

export const scanDir = (): string | undefined => process.env[SCAN_DIR_ENV] || undefined;

interface CaptureFile {
  fd: number;
  bytes: number;
  full: boolean;
}

const files = new Map<CaptureKind, CaptureFile>();

function append(kind: CaptureKind, record: Record<string, unknown>) {
  const dir = scanDir();
  if (!dir) return;
  let file = files.get(kind);
  if (!file) {
    file = { fd: fs.openSync(path.join(dir, `${kind}-${process.pid}.jsonl`), 'a'), bytes: 0, full: false };
    files.set(kind, file);
  }
  if (file.full) return;
  let line = `${JSON.stringify(record)}\n`;
  if (file.bytes + line.length > FILE_CAP) {
    file.full = true;
    line = `${JSON.stringify({ capped: true })}\n`;
  }
  fs.writeSync(file.fd, line);
  file.bytes += line.length;
}

/** The test file running now, relative to apps/api, so a finding says where to look. */
function testFile(): string {
  try {
    const testPath = expect.getState().testPath;
    return testPath ? path.relative(path.resolve(import.meta.dirname, '../..'), testPath) : '?';
  } catch {
    return '?';
  }
}

const TEXTUAL = /^(text\/|application\/([\w.+-]*\+)?json)/i;
/** An XLSX is a zip: kept as base64 for the scan to unzip (test/support/secret-scan.ts). */
const ZIPPED = /^application\/vnd\.openxmlformats-officedocument\./i;

function sessionIds(setCookie: unknown): string[] {
  const all = Array.isArray(setCookie) ? setCookie : setCookie === undefined ? [] : [String(setCookie)];
  return all.flatMap((cookie: string) => {
    const m = new RegExp(`^${SESSION_COOKIE}=([^;]+)`).exec(cookie);
    return m?.[1] ? [decodeURIComponent(m[1])] : [];
  });
}

/** A copy of a streamed body, up to BODY_CAP, taken as the stream passes through (backpressure kept). */
function teeStream(source: Readable, done: (body: Buffer, truncated: boolean) => void): Transform {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  const tee = new Transform({
    transform(chunk: Buffer | string, _enc, next) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      if (size < BODY_CAP) chunks.push(buf.subarray(0, BODY_CAP - size));
      else truncated = true;
      size += buf.length;
      next(null, chunk);
    },
    flush(next) {
      done(Buffer.concat(chunks), truncated || size > BODY_CAP);
      next();
    },
  });
  // A client going away destroys the tee; pipeline passes that on to the producer, as before.
  pipeline(source, tee, () => undefined);
  return tee;
}

const pending = new Set<Promise<unknown>>();

/**
 * Hooks `app` (before `ready()`) so every answer it sends is written down. Only the answers to
 * a URL the router cannot read skip the hooks (Fastify's frameworkErrors): a fixed problem body.
 */
export function captureResponses(app: FastifyInstance) {
  if (!scanDir()) return;
  const file = testFile();
  app.addHook('onRequest', async (req) => {
    const auth = req.headers.authorization;
    if (typeof auth === 'string' && /^bearer\s+\S/i.test(auth)) {
      append('secrets', { f: file, kind: 'token', v: auth.replace(/^bearer\s+/i, '').trim() });
    }
  });
  app.addHook('onSend', async (req, reply, payload) => {
    for (const sid of sessionIds(reply.getHeader('set-cookie')))
      append('secrets', { f: file, kind: 'session', v: sid });
    const contentType = String(reply.getHeader('content-type') ?? '');
    const record = (body: string | null, extra: Record<string, unknown> = {}) =>
      append('responses', {
        f: file,
        m: req.method,
        u: req.url.slice(0, 300),
        r: req.routeOptions.url ?? null,
        s: reply.statusCode,
        ct: contentType,
        b: body === null ? null : body.slice(0, BODY_CAP),
        ...(body !== null && body.length > BODY_CAP ? { cut: true } : {}),
        ...extra,
      });
    if (payload === null || payload === undefined) record('');
    else if (typeof payload === 'string') record(payload);
    else if (Buffer.isBuffer(payload)) record(TEXTUAL.test(contentType) ? payload.toString('utf8') : null);
    else if (payload instanceof Response) {
      // tRPC answers with a fetch Response: a clone is read on the side, the original is sent.
      for (const sid of sessionIds(payload.headers.getSetCookie())) {
        append('secrets', { f: file, kind: 'session', v: sid });
      }
      const status = payload.status;
      const type = payload.headers.get('content-type') ?? contentType;
      const read = payload
        .clone()
        .text()
        .then((text) => record(text, { s: status, ct: type }))
        .catch(() => undefined)
        .finally(() => pending.delete(read));
      pending.add(read);
    } else if (typeof (payload as Readable).pipe === 'function') {
      // Exports stream: copied as they pass. CSV and JSON as text; an XLSX as base64 (a zip).
      if (TEXTUAL.test(contentType)) {
        return teeStream(payload as Readable, (body, cut) => record(body.toString('utf8'), cut ? { cut: true } : {}));
      }
      if (ZIPPED.test(contentType)) {
        return teeStream(payload as Readable, (body, cut) =>
          record(null, { zip: body.toString('base64'), ...(cut ? { cut: true } : {}) }),
        );
      }
      record(null, { binary: true });
    }
    return payload;
  });
}

/**
 * Answers still being read on the side (tRPC's), so nothing is lost when the app closes; a
 * stream a test left unfinished is not waited for past a few seconds.
 */
export async function flushCaptures() {
  let timer: NodeJS.Timeout | undefined;
  const giveUp = new Promise((resolve) => {
    timer = setTimeout(resolve, 5_000);
  });
  await Promise.race([Promise.allSettled([...pending]), giveUp]);
  clearTimeout(timer);
}

/** A pino destination for the scan: each line is written down, with the test file it came from. */
function logSink() {
  const file = testFile();
  return {
    write(line: string) {
      append('logs', { f: file, l: line.endsWith('\n') ? line.slice(0, -1) : line });
    },
  };
}

const teed = Symbol('secret-scan tee');

/**
 * The logger an app under test gets. With the scan off: the test's own, or a silent one. With it
 * on: the test's own with its destination teed into the capture, or else the production logger
 * (same redaction) at its most talkative level writing into the capture, so that everything the
 * app could log is seen.
 */
export function scanLogger(own: Logger | undefined): Logger {
  if (!scanDir()) return own ?? pino({ level: 'silent' });
  if (!own) return createLogger('trace', logSink());
  const stream = (own as unknown as Record<symbol, { write(line: string): unknown; [teed]?: true }>)[
    pino.symbols.streamSym
  ];
  if (stream && !stream[teed]) {
    const sink = logSink();
    const write = stream.write.bind(stream);
    stream.write = (line: string) => {
      sink.write(line);
      return write(line);
    };
    stream[teed] = true;
  }
  return own;
}

/** Every audit row and audit target the test left, read before its database is dropped. */
export async function captureAudit(db: Database) {
  if (!scanDir()) return;
  const file = testFile();
  for (const table of ['audit_logs', 'audit_targets']) {
    try {
      const [rows] = await db.sequelize.query(`SELECT * FROM ${table} LIMIT ${AUDIT_ROWS_CAP}`);
      for (const row of rows) append('audit', { f: file, t: table, row });
    } catch {
      // A test that closed or broke its own database has nothing more to read.
    }
  }
}
