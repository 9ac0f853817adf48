import { Counter, Gauge, type Registry } from 'prom-client';
import { QueryTypes } from 'sequelize';
import type { Database } from '../db/database.js';

/**
 * The mail counters of this process. They are the process's, not an app's: the sender runs
 * beside the app (main.ts), and a test process runs several apps, so each app's registry takes
 * these same counters in (`registerMailMetrics`).
 */
export const mailCounters = {
  queued: new Counter({
    name: 'mail_messages_queued_total',
    help: 'Mail messages written to the outbox by changes that committed in this process.',
    registers: [],
  }),
  sent: new Counter({
    name: 'mail_messages_sent_total',
    help: "Mail messages this process's sender handed to the SMTP server, which accepted them.",
    registers: [],
  }),
  failed: new Counter({
    name: 'mail_messages_failed_total',
    help: "Mail messages this process's sender gave up on (refused for good, or out of attempts).",
    registers: [],
  }),
  retried: new Counter({
    name: 'mail_attempts_failed_total',
    help: "Attempts of this process's sender that failed and will be tried again.",
    registers: [],
  }),
};

/**
 * Adds the counters to `registry`, with the outbox's backlog as every instance shares it: the
 * messages still to send (waiting for an attempt or being sent), read from the database when
 * scraped.
 */
export function registerMailMetrics(registry: Registry, db: Database) {
  for (const counter of Object.values(mailCounters)) registry.registerMetric(counter);
  new Gauge({
    name: 'mail_outbox_waiting',
    help: 'Mail messages in the outbox not yet sent nor given up (all instances).',
    registers: [registry],
    async collect() {
      try {
        const [row] = await db.sequelize.query<{ n: number | string }>(
          'SELECT COUNT(*) AS n FROM mail_outbox WHERE due_at IS NOT NULL',
          { type: QueryTypes.SELECT },
        );
        this.set(Number(row?.n ?? 0));
      } catch {
        // The database away: the scrape still answers, without this one figure.
      }
    },
  });
}
