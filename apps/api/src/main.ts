import v8 from 'node:v8';
import { openConfiguredDatabase, prepareDatabase } from './bootstrap.js';
import { ConfigError, loadConfig } from './config.js';
import { createLifecycle } from './lifecycle.js';
import { createLogger } from './logger.js';
import { buildApp } from './server.js';
import { startHousekeeping } from './housekeeping/housekeeping.js';
import { sessionLimits } from './auth/sessions.js';
import { startDispatcher } from './webhooks/dispatcher.js';
import { webhooksSettings } from './webhooks/settings.js';
import { jobKinds, jobsSettings } from './app/job-kinds.js';
import { createRequestActivity, reportServed } from './request-activity.js';
import { startJobRunner } from './jobs/runner.js';
import { mailThreadEntry, startMailSenderThread } from './mail/sender-thread.js';
import { mailSettings } from './mail/settings.js';

const SHUTDOWN_GRACE_MS = 30_000;

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  // An import or export allocates fast and keeps little: V8's default would let the garbage
  // grow to about four times what is live before a full collection (an API at 300 MB during a
  // 300 000-line import); 50 % keeps it near 200 MB for ~1 % more time collecting (docs/decisions.md).
  if (config.HEAP_GROWTH_PERCENT > 0) v8.setFlagsFromString(`--heap-growing-percent=${config.HEAP_GROWTH_PERCENT}`);
  const logger = createLogger(config.LOG_LEVEL);
  const db = await openConfiguredDatabase(config, logger);
  try {
    await prepareDatabase(db, config, logger);
  } catch (err) {
    logger.fatal({ err }, 'database preparation failed');
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    await db.close();
    process.exit(1);
  }

  if (config.NODE_ENV === 'production' && !config.SECRETS_KEY) {
    logger.warn(
      'SECRETS_KEY is not set: webhook signing secrets, the links of mail waiting to be sent and two-factor secrets are stored unsealed (see docs/webhooks.md)',
    );
  }
  const mail = mailSettings(config);
  if (!mail.enabled) {
    logger.info(
      'mail is off: SMTP_URL is not set, so nothing is mailed; links that would be mailed are answered for an administrator to pass on (see docs/authentication.md)',
    );
  }
  const lifecycle = createLifecycle();
  // Jobs and mail give way while this instance serves someone (BACKGROUND_NICE_RATIO).
  const activity = createRequestActivity();
  // A worker serves no HTTP: it only delivers webhooks, runs jobs and keeps house.
  const app = config.PROCESS_ROLE === 'all' ? await buildApp({ config, db, logger, lifecycle, activity }) : null;
  if (app) {
    await app.listen({ host: config.HOST, port: config.PORT });
    logger.info({ database: db.describe }, `User administration is running at http://${config.HOST}:${config.PORT}`);
  } else {
    logger.info({ database: db.describe }, 'User administration worker is running (no HTTP listener)');
  }
  // Webhook deliveries, beside the requests: any number of instances may run one.
  const dispatcher = config.WEBHOOKS_DISPATCHER
    ? startDispatcher({ db, settings: webhooksSettings(config), log: logger.child({ component: 'webhooks' }) })
    : null;
  // Background jobs (bulk over a selection), beside the requests: any number of instances may run one.
  const jobs = config.JOBS_RUNNER
    ? startJobRunner({
        db,
        settings: jobsSettings(config),
        kinds: jobKinds(db, config),
        log: logger.child({ component: 'jobs' }),
        activity,
      })
    : null;
  // Outgoing mail, beside the requests: any number of instances may run a sender. On MySQL it
  // runs on a thread of its own (sender-thread.ts); SQLite has one writer, this process's queue.
  const mailThread = db.dialect === 'mysql' ? mailThreadEntry(import.meta.url) : null;
  const mailLog = logger.child({ component: 'mail' });
  const mailer =
    mail.enabled && config.MAIL_SENDER
      ? mailThread
        ? startMailSenderThread({ entry: mailThread, log: mailLog })
        : // Loaded only here: nodemailer stays out of the memory of an instance that sends no mail.
          (await import('./mail/sender.js')).startMailSender({ db, settings: mail, log: mailLog })
      : null;
  // The sender gives way to this instance's requests as the jobs do (BACKGROUND_NICE_RATIO).
  const stopReporting = mailer ? reportServed(activity, (ms) => mailer.served(ms)) : () => undefined;
  // Expired sessions and rate-limit windows, purged about hourly by every instance.
  const housekeeping = startHousekeeping({
    db,
    sessions: sessionLimits(config),
    log: logger.child({ component: 'housekeeping' }),
  });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // SIGTERM comes from an orchestrator: say "not ready" and keep serving until the balancer
    // has noticed. SIGINT is someone at a terminal, who wants it to stop now.
    const drainSeconds = signal === 'SIGTERM' && app ? config.SHUTDOWN_DRAIN_SECONDS : 0;
    if (drainSeconds > 0) {
      lifecycle.drain();
      logger.info({ signal, drainSeconds }, 'draining: /api/ready answers 503 while requests are still served');
      await new Promise((resolve) => setTimeout(resolve, drainSeconds * 1000));
    }
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    // In-flight requests and streams finish; new connections are refused; then the pool closes.
    const force = setTimeout(() => {
      logger.error('shutdown grace period over; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    // Fastify closes the connections idle when closing starts; a kept-alive connection busy at
    // that moment would stay open after its answer (a balancer keeps it for reuse) and hold the
    // exit until the grace period: close those too as soon as they fall idle.
    const sweep = setInterval(() => app?.server.closeIdleConnections(), 200);
    try {
      await app?.close();
      clearInterval(sweep);
      // Attempts in flight end within their timeout and are recorded; unclaimed ones wait in the outbox.
      await dispatcher?.stop();
      // A job stops after its current chunk and lets its lease go: another instance resumes it.
      await jobs?.stop();
      // Messages in flight end within MAIL_TIMEOUT_SECONDS and are recorded; the rest wait in the outbox.
      stopReporting();
      await mailer?.stop();
      await housekeeping.stop();
      await db.close();
      logger.info('stopped');
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err) => {
  process.stderr.write(`Failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
