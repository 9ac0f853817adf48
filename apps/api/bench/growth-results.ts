import fs from 'node:fs';
import type { Outcome } from './report.js';

/** One HTTP scenario's figures as a run of the bench measured them, for the growth table. */
export interface ScenarioResult {
  name: string;
  title: string;
  status: string;
  p50: number | null;
  p99: number | null;
  /** The SQL floor's p50 with the authentication lookups, on the run's connections (null when none was measured). */
  floorP50: number | null;
}

/** What a run measured, for the growth table: its users, how long seeding took (if it seeded), each scenario. */
export interface RunResults {
  users: number;
  seeded: { added: number; seconds: number } | null;
  scenarios: ScenarioResult[];
}

/** Writes the HTTP scenarios' p50 and p99 of a run to `file` as JSON (`--results`). */
export function writeResults(file: string, run: Omit<RunResults, 'scenarios'>, outcomes: readonly Outcome[]): void {
  const scenarios: ScenarioResult[] = outcomes
    .filter((o) => o.kind === 'http')
    .map((o) => ({
      name: o.scenario.name,
      title: o.scenario.title,
      status: o.status,
      p50: o.load?.p50 ?? null,
      p99: o.load?.p99 ?? null,
      floorP50: o.floor?.withAuth.p50 ?? null,
    }));
  fs.writeFileSync(file, `${JSON.stringify({ ...run, scenarios } satisfies RunResults, null, 2)}\n`);
}

export function readResults(file: string): RunResults {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as RunResults;
}
