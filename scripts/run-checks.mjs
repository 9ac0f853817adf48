#!/usr/bin/env node
// Runs checks one after another and writes how each ended to a JSON file: `npm test` starts it
// in the background so the benchmark smokes run beside the browser tests (scripts/test-all.mjs).
// A failed check's last lines go in the JSON too: the summary repeats them, since a long log's
// tail is what is read.
// Usage: node scripts/run-checks.mjs <checks.json> <results.json>
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { passLines } from './pass-lines.mjs';

const TAIL_LINES = 25;
const [checksFile, resultsFile] = process.argv.slice(2);
const checks = JSON.parse(fs.readFileSync(checksFile, 'utf8'));

/** Runs one check, its output passed on as it comes; resolves with its exit code and its last lines. */
const runCheck = (check) =>
  new Promise((resolve) => {
    const child = spawn(check.cmd[0], check.cmd.slice(1), {
      cwd: check.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: process.env,
    });
    const tail = [];
    const keep = (line) => {
      tail.push(line);
      if (tail.length > TAIL_LINES) tail.shift();
    };
    const flushes = [passLines(child.stdout, process.stdout, keep), passLines(child.stderr, process.stdout, keep)];
    child.on('close', (code, signal) => {
      for (const flush of flushes) flush();
      resolve({ status: code ?? (signal ? 1 : 0), tail: tail.slice(-TAIL_LINES) });
    });
  });

const results = [];
for (const check of checks) {
  console.log(`\n=== ${check.name} ===`);
  const started = Date.now();
  const { status, tail } = await runCheck(check);
  results.push({
    name: check.name,
    seconds: (Date.now() - started) / 1000,
    status,
    ...(status === 0 ? {} : { tail }),
  });
  fs.writeFileSync(resultsFile, JSON.stringify(results));
}
