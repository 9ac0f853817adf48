#!/usr/bin/env node
// Runs checks one after another and writes how each ended to a JSON file: `npm test` starts it
// in the background so the benchmark smokes run beside the browser tests (scripts/test-all.mjs).
// Usage: node scripts/run-checks.mjs <checks.json> <results.json>
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const [checksFile, resultsFile] = process.argv.slice(2);
const checks = JSON.parse(fs.readFileSync(checksFile, 'utf8'));
const results = [];
for (const check of checks) {
  console.log(`\n=== ${check.name} ===`);
  const started = Date.now();
  const res = spawnSync(check.cmd[0], check.cmd.slice(1), { cwd: check.cwd, stdio: 'inherit', env: process.env });
  results.push({ name: check.name, seconds: (Date.now() - started) / 1000, status: res.status });
  fs.writeFileSync(resultsFile, JSON.stringify(results));
}
