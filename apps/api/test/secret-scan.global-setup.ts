import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SCAN_DIR_ENV } from './support/secret-capture.js';
import { findingsText, scanCaptures, totalsLine } from './support/secret-scan.js';

/**
 * The secret scan over everything the API test suite produced: test/support/secret-capture.ts
 * writes down every response body, log line and audit row of every app a test starts; once all
 * test files have run, this reads them and fails the run on any password, hash, token or
 * session id found (test/support/secrets.ts says what those look like).
 *
 * Vitest calls a global setup once per project (and once for the root): the first call owns the
 * directory and the scan, the others find it made. Workers inherit the variable.
 */
const OWNED = 'SECRET_SCAN_OWNED';
let owner = false;
let created = false;

export function setup() {
  if (process.env[OWNED]) return;
  process.env[OWNED] = '1';
  owner = true;
  const given = process.env[SCAN_DIR_ENV];
  if (given) {
    fs.mkdirSync(given, { recursive: true });
    for (const name of fs.readdirSync(given)) if (name.endsWith('.jsonl')) fs.rmSync(path.join(given, name));
  } else {
    process.env[SCAN_DIR_ENV] = fs.mkdtempSync(path.join(os.tmpdir(), 'ua-secret-scan-'));
    created = true;
  }
}

export async function teardown() {
  if (!owner) return;
  const dir = process.env[SCAN_DIR_ENV] as string;
  const report = await scanCaptures(dir);
  console.log(totalsLine(report));
  if (created) fs.rmSync(dir, { recursive: true, force: true });
  if (report.findings.length > 0) {
    const message = `Secret scan: ${report.findings.length} secret(s) in what the tests produced:\n${findingsText(report)}`;
    console.error(`\n\x1b[31m${message}\x1b[0m\n`);
    // Vitest reports a throwing teardown but still exits 0: the exit code is set here.
    process.exitCode = 1;
    throw new Error(message);
  }
}
