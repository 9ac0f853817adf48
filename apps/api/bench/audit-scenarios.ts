import type { AuditBenchData } from './audit-seed.js';
import { get, qs } from './list-scenarios.js';
import type { BenchContext, HttpScenario } from './scenarios.js';

// The GET /audit scenarios: the audit log's list over the seeded trail.

const auditData = (ctx: BenchContext): AuditBenchData => {
  if (!ctx.audit) throw new Error('no audit events were seeded for this run');
  return ctx.audit;
};

/** A GET /audit scenario (issue: the audit log as a resource): target p50 100 ms at 10 000 000 events. */
function auditScenario(
  name: string,
  title: string,
  params: (audit: AuditBenchData) => Record<string, string | number>,
): HttpScenario {
  return {
    kind: 'http',
    name,
    title,
    target: { kind: 'p50', ms: 100 },
    floor: true,
    section: 'audit',
    request: (ctx) => {
      const query = qs(params(auditData(ctx)));
      return get(query ? `/api/audit?${query}` : '/api/audit');
    },
  };
}

/** The calendar month a year before the run: inside the 3 years the seeded trail spans. */
function monthLastYear(): Record<string, string> {
  const now = new Date();
  const [y, m] = [now.getUTCFullYear() - 1, now.getUTCMonth()];
  const day = (d: Date) => d.toISOString().slice(0, 10);
  return {
    'filters[occurred_between][from]': day(new Date(Date.UTC(y, m, 1))),
    'filters[occurred_between][to]': day(new Date(Date.UTC(y, m + 1, 0))),
  };
}

/** The audit log's list, newest first: each filter alone, a search and a deep page. */
export function auditScenarios(): HttpScenario[] {
  return [
    auditScenario('audit-default', 'GET /audit, default page (newest first)', () => ({})),
    auditScenario('audit-action', 'action = user.deactivate', () => ({ 'filters[action][]': 'user.deactivate' })),
    auditScenario('audit-actor', 'actor_id = the busiest actor', (a) => ({ 'filters[actor_id]': a.actorId })),
    auditScenario('audit-user', "user_id = an administrator's history (actor or target)", (a) => ({
      'filters[user_id]': a.historyUserId,
    })),
    auditScenario('audit-target', 'target_id = a user', (a) => ({ 'filters[target_id]': a.targetUser.id })),
    auditScenario('audit-month', 'occurred in a month', monthLastYear),
    auditScenario('audit-ip', 'ip = one address', (a) => ({ 'filters[ip]': a.ip })),
    auditScenario('audit-search-email', "q = a user's whole e-mail", (a) => ({ q: a.targetUser.email })),
    // Page 400 of 25 (offset 9 975) at 10 000 000 events; smaller seeds keep the page inside the data.
    auditScenario('audit-deep-page', 'GET /audit, page 400', (a) => ({
      page: Math.max(1, Math.min(400, Math.floor(a.events / 25))),
    })),
  ];
}
