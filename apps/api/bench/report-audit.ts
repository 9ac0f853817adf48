import { AUDIT_TRAIL_SHAPE } from './audit-actions.js';
import { EVENTS_PER_STATEMENT } from './audit-seed.js';
import { f0, f1, int, ms, ratio, statusText, targetText, verdict } from './report-format.js';
import type { HttpOutcome, RunInfo } from './report.js';

/** The events the audit scenarios' targets are set for. */
const TARGET_EVENTS = 10_000_000;

/**
 * The report's audit log section: the seeded trail and a table of the audit scenarios, which
 * the users' table leaves out (their data and targets are the trail's, not the users').
 */
export function renderAuditSection(run: RunInfo, outcomes: readonly HttpOutcome[]): string[] {
  const audit = outcomes.filter((o) => o.scenario.section === 'audit');
  if (audit.length === 0) return [];
  const L: string[] = ['## Audit log', ''];
  const events = run.audit?.events ?? Number.NaN;
  L.push(
    `- Trail: **${int(events)}** seeded audit events in \`${run.database}\` (\`bench/audit-seed.ts\`): ${AUDIT_TRAIL_SHAPE}; ` +
      '`changes`, `context` and `audit_targets` rows as `recordChange` writes them.',
  );
  const s = run.audit?.seeded;
  L.push(
    s
      ? `- Seeding: ${int(s.added)} events and ${int(s.targets)} target rows added in ${f1(s.seconds)} s (${int(s.added / Math.max(s.seconds, 0.001))} events/s; INSERT … SELECT over MariaDB's sequence engine, ${int(EVENTS_PER_STATEMENT)} events per statement).`
      : '- Seeding: reused the events already there (`--reuse`).',
  );
  L.push('');
  L.push(
    '| Scenario | p50 | p99 | req/s | SQL floor p50 | ratio | floor incl. auth | ratio incl. auth | API peak RSS | target | result |',
  );
  L.push('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const o of audit) {
    const l = o.load;
    const st = statusText(o);
    L.push(
      `| ${o.scenario.title} | ${st || ms(l?.p50 ?? Number.NaN)} | ${st ? '' : ms(l?.p99 ?? Number.NaN)} | ${st ? '' : f1(l?.reqPerSec ?? Number.NaN)} | ${ms(
        o.floor?.list.p50 ?? Number.NaN,
      )} | ${ratio(o, 'list')} | ${ms(o.floor?.withAuth.p50 ?? Number.NaN)} | ${ratio(o, 'withAuth')} | ${
        o.peakRssMb ? `${f0(o.peakRssMb)} MB` : '—'
      } | ${targetText(o.scenario.target)} | ${verdict(o)} |`,
    );
  }
  L.push('');
  if (!run.smoke && events !== TARGET_EVENTS) {
    L.push(`The audit targets are set for ${int(TARGET_EVENTS)} events; this run had ${int(events)}.`);
    L.push('');
  }
  return L;
}
