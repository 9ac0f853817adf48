import { Counter, type Registry } from 'prom-client';

/**
 * "Forgot password" and reset counters of this process, shared by every app a process runs (as
 * the mail counters are). For the operator only (GET /metrics, with its token): a rise of
 * requests for no account is someone trying addresses, which no answer tells them.
 */
export const passwordResetCounters = {
  requests: new Counter({
    name: 'password_reset_requests_total',
    help: '"Forgot password" requests taken in, by outcome: mailed (a live, active account), not_mailed (none, inactive, deleted, or mail off), rate_limited.',
    labelNames: ['outcome'] as const,
    registers: [],
  }),
  completed: new Counter({
    name: 'password_resets_completed_total',
    help: 'Passwords set through a reset link.',
    registers: [],
  }),
};

export function registerPasswordResetMetrics(registry: Registry) {
  for (const counter of Object.values(passwordResetCounters)) registry.registerMetric(counter);
}
