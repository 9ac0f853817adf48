import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { canonicalEmail, hasInvisibleCharacter, INVISIBLE_IN_EMAIL_MESSAGE } from '@app/contracts';
import { z } from 'zod';
import { envBoolean, envOptional } from './config-helpers.js';
import { type UsersConfig, usersConfigEnvSchema } from './users-config.js';
import { envTrustProxy } from './trust-proxy.js';

/** The repository root: `./data/` and the built SPA are found from here whatever the cwd. */
export const ROOT_DIR = path.resolve(fileURLToPath(import.meta.url), '../../../..');

const databaseUrl = z
  .string()
  .trim()
  .refine((v) => /^(mysql|mariadb):\/\/[^/]+\/[^/?]+/.test(v), {
    message: 'must look like mysql://user:password@host:3306/database',
  });

/** 32 random bytes in base64, as `openssl rand -base64 32` prints them. The value is never echoed. */
const KEY_MESSAGE = 'must be 32 random bytes in base64, e.g. the output of `openssl rand -base64 32`';
const isKey = (v: string) => /^[A-Za-z0-9+/]{43}=$/.test(v);
const secretKey = z
  .string()
  .trim()
  .refine(isKey, { message: KEY_MESSAGE })
  .transform((v) => Buffer.from(v, 'base64'));

/** An SMTP server: `smtp://` (STARTTLS when offered) or `smtps://` (TLS from the start). Never echoed: it may hold a password. */
const smtpUrl = z
  .string()
  .trim()
  .refine(
    (v) => {
      try {
        const u = new URL(v);
        return (u.protocol === 'smtp:' || u.protocol === 'smtps:') && u.hostname !== '';
      } catch {
        return false;
      }
    },
    { message: 'must look like smtp://user:password@host:587 or smtps://host:465' },
  );

/** `address@example.com` or `Name <address@example.com>`: the From of every mail. */
const mailFrom = z
  .string()
  .trim()
  .refine(
    (v) => {
      const address = /^[^<>]*<([^<>]+)>$/.exec(v)?.[1] ?? v;
      return z.email().safeParse(address.trim()).success;
    },
    { message: 'must be an address, or a name and an address: "User administration <no-reply@example.com>"' },
  );

/** The origin (and path, behind a proxy) people reach the product at; without a trailing slash. */
const publicUrl = z
  .string()
  .trim()
  .refine(
    (v) => {
      try {
        const u = new URL(v);
        return (u.protocol === 'http:' || u.protocol === 'https:') && !u.search && !u.hash && !u.username;
      } catch {
        return false;
      }
    },
    { message: 'must be the address people open the product at, e.g. https://admin.example.com' },
  )
  .transform((v) => v.replace(/\/+$/, ''));

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().trim().min(1).default('localhost'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATABASE_URL: envOptional(databaseUrl),
  DATABASE_READ_URLS: envOptional(z.string()).transform((v, ctx) => {
    const urls = (v ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    for (const url of urls) {
      if (!databaseUrl.safeParse(url).success) {
        ctx.addIssue({ code: 'custom', message: `"${url}" must look like mysql://user:password@host:3306/database` });
      }
    }
    return urls;
  }),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  /** A MySQL statement the server sent and got no answer to within this long fails (503). */
  DATABASE_STATEMENT_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  DATA_DIR: z.string().trim().min(1).default(path.join(ROOT_DIR, 'data')),
  MIGRATE_ON_START: envBoolean(false),
  ADMIN_EMAIL: z
    .string()
    .trim()
    .refine((v) => !hasInvisibleCharacter(v), INVISIBLE_IN_EMAIL_MESSAGE)
    .transform(canonicalEmail)
    .pipe(z.email())
    .default('admin@example.com'),
  ADMIN_PASSWORD: envOptional(z.string().min(8, 'must be at least 8 characters').max(128)),
  DEMO_USERS: z.coerce.number().int().min(0).max(1_000_000).default(250),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  COOKIE_SECURE: envBoolean(false),
  TRUST_PROXY: envTrustProxy(),
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(60 * 24 * 30)
    .default(120),
  SESSION_ABSOLUTE_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 365)
    .default(24),
  LOGIN_MAX_ATTEMPTS_PER_EMAIL: z.coerce.number().int().min(1).max(1000).default(5),
  LOGIN_MAX_ATTEMPTS_PER_IP: z.coerce.number().int().min(1).max(100_000).default(50),
  LOGIN_WINDOW_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(15),
  /** Hours an invitation's link works (SPEC §14). */
  INVITE_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(72),
  /** Minutes a password-reset link works (SPEC §14). */
  RESET_TTL_MINUTES: z.coerce
    .number()
    .int()
    .min(5)
    .max(7 * 24 * 60)
    .default(60),
  /**
   * "Forgot password" requests per window, per canonical e-mail (whether an account has it or not)
   * and per client network; beyond them 429. The window is at most a day, as rate rows are kept.
   */
  RESET_MAX_REQUESTS_PER_EMAIL: z.coerce.number().int().min(1).max(1000).default(5),
  RESET_MAX_REQUESTS_PER_IP: z.coerce.number().int().min(1).max(100_000).default(20),
  RESET_WINDOW_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(60),
  WEB_DIST_DIR: z.string().trim().min(1).default(path.join(ROOT_DIR, 'apps/web/dist')),
  /**
   * Seconds an instance keeps serving after SIGTERM while /api/ready says 503, so a load
   * balancer's health check takes it out of rotation before the listener closes.
   */
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().int().min(0).max(300).default(0),
  /** The bearer token a Prometheus scraper sends to GET /api/metrics; unset: no metrics route. */
  METRICS_TOKEN: envOptional(z.string().trim().min(24, 'must be at least 24 characters')),
  /** Days of audit events `audit:prune` keeps; unset keeps every event. */
  AUDIT_RETENTION_DAYS: envOptional(z.coerce.number().int().min(1).max(36_500)),
  /** Runs this instance's webhook dispatcher (any number of instances may run one). */
  WEBHOOKS_DISPATCHER: envBoolean(true),
  /** Lets endpoints resolve to loopback, private and other non-public addresses (SSRF guard off). */
  WEBHOOKS_ALLOW_PRIVATE: envBoolean(false),
  /** Whole-attempt limit: connect, send, and read the answer. */
  WEBHOOKS_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(60).default(10),
  /** Attempts per delivery before it is marked failed (manual redelivery adds one more). */
  WEBHOOKS_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(8),
  /** The first retry's delay; each next one is 4 times longer (capped at 10 hours), ±25 % jitter. */
  WEBHOOKS_RETRY_BASE_SECONDS: z.coerce.number().min(0.01).max(3600).default(10),
  /** Consecutive failed attempts that open an endpoint's circuit. */
  WEBHOOKS_CIRCUIT_THRESHOLD: z.coerce.number().int().min(1).max(1000).default(5),
  /** How long an opened circuit first waits before one probe; doubles with each reopening, up to 1 hour. */
  WEBHOOKS_CIRCUIT_COOLDOWN_SECONDS: z.coerce.number().min(0.01).max(3600).default(60),
  /** An endpoint whose every attempt failed for this many days is switched off. */
  WEBHOOKS_DISABLE_AFTER_DAYS: z.coerce.number().min(0.001).max(365).default(5),
  /** Days of webhook history (events, deliveries, attempts) kept; older is pruned hourly and by `webhooks:prune`. */
  WEBHOOKS_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** Seals webhook signing secrets at rest (AES-256-GCM); unset, they are stored as they are. */
  SECRETS_KEY: envOptional(secretKey),
  /** Former SECRETS_KEYs, comma-separated: they still open what they sealed until `webhooks:reseal` has run. */
  SECRETS_KEY_PREVIOUS: envOptional(z.string()).transform((v, ctx) => {
    const keys = (v ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (keys.some((k) => !isKey(k))) ctx.addIssue({ code: 'custom', message: `each key ${KEY_MESSAGE}` });
    return keys.map((k) => Buffer.from(k, 'base64'));
  }),
  /** Deliveries one dispatcher has in flight at once. */
  WEBHOOKS_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(64),
  /** The SMTP server mail goes out through; unset, nothing is mailed (answers carry the links instead). */
  SMTP_URL: envOptional(smtpUrl),
  /** The From of every mail (needed with SMTP_URL). */
  MAIL_FROM: envOptional(mailFrom),
  /** Where links in mail point (needed with SMTP_URL): the address people open the product at. */
  PUBLIC_URL: envOptional(publicUrl),
  /** Admits http:// single sign-on issuers on loopback and private addresses (a provider the tests run); never in production. */
  SSO_ALLOW_INSECURE_ISSUER: envBoolean(false),
  /** Runs this instance's mail sender (any number of instances may run one). */
  MAIL_SENDER: envBoolean(true),
  /** Attempts per message before it is marked failed. */
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(10),
  /** The first retry's delay; each next one twice as long (capped at 1 hour), ±25 % jitter. */
  MAIL_RETRY_BASE_SECONDS: z.coerce.number().min(0.01).max(3600).default(30),
  /** Whole-attempt limit: connect, greet, send and be answered. */
  MAIL_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(300).default(30),
  /** Messages one sender has in flight at once (and SMTP connections it keeps open). */
  MAIL_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(8),
  /** Days sent and failed messages are kept in the outbox (their content is cleared at once). */
  MAIL_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /**
   * `all`: serve HTTP and run the background work (webhook deliveries, jobs, housekeeping);
   * `worker`: only the background work, no listener (scale it apart from the API).
   */
  PROCESS_ROLE: z.enum(['all', 'worker'], { error: 'must be all or worker' }).default('all'),
  /** Runs this instance's job runner (any number of instances may run one). */
  JOBS_RUNNER: envBoolean(true),
  /** Jobs one runner works on at once. */
  JOBS_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
  /** Users per chunk: each chunk commits its changes, audit, events and checkpoint together. */
  JOBS_CHUNK_SIZE: z.coerce.number().int().min(1).max(10_000).default(1_000),
  /** Users per chunk of a dry run: it locks and writes none of them, so its chunks can be larger. */
  JOBS_DRY_RUN_CHUNK_SIZE: z.coerce.number().int().min(1).max(50_000).default(10_000),
  /**
   * After each chunk a job waits this many times how long this instance had a request in flight
   * while the chunk ran (0: never), so the people using it keep their speed; dry runs, which
   * someone is waiting for, never wait. On an idle instance a job runs at full speed.
   */
  BACKGROUND_NICE_RATIO: z.coerce.number().min(0).max(10).default(2),
  /** A job whose runner sends no heartbeat for this long is taken over by another runner. */
  JOBS_LEASE_SECONDS: z.coerce.number().min(1).max(3600).default(30),
  /** Days a finished job and its report are kept. */
  JOBS_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** Largest import file accepted, in MB (413 above, with the limit in the answer). */
  IMPORT_MAX_MB: z.coerce.number().int().min(1).max(10_240).default(200),
  /** Data rows an import file may hold. */
  IMPORT_MAX_ROWS: z.coerce.number().int().min(1).max(20_000_000).default(2_000_000),
  /** What an XLSX file may inflate to, in MB (a decompression bomb is refused before it is read). */
  IMPORT_MAX_UNCOMPRESSED_MB: z.coerce.number().int().min(1).max(102_400).default(2_048),
  /**
   * What the texts of an XLSX's shared strings table may take, in MB: the table is held in
   * memory while the sheet is read (packed, a few bytes a text beyond its own). 4 095 at most: the
   * table's offsets are 32-bit.
   */
  IMPORT_MAX_SHARED_STRINGS_MB: z.coerce.number().int().min(1).max(4_095).default(64),
  /** Where uploads are spooled while they are read (the system's temporary directory when unset). */
  IMPORT_SPOOL_DIR: z.string().trim().min(1).optional(),
  /** Hours an import can be undone after it finished. */
  IMPORT_UNDO_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 365)
    .default(168),
  /**
   * How far V8 lets the heap grow past what the last full collection kept, in % (V8's
   * `--heap-growing-percent`); 0 leaves it to V8, which grows up to 4× when collecting is cheap.
   */
  HEAP_GROWTH_PERCENT: z.coerce.number().int().min(0).max(300).default(50),
});

export type AppConfig = Omit<z.output<typeof EnvSchema>, never> & { users: UsersConfig };

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads the environment once, validates all of it, and reports every bad value at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const base = EnvSchema.safeParse(env);
  const users = usersConfigEnvSchema.safeParse(env);
  const problems: string[] = [];
  for (const result of [base, users]) {
    if (!result.success) {
      for (const issue of result.error.issues) {
        problems.push(`${issue.path.join('.') || 'environment'}: ${issue.message}`);
      }
    }
  }
  if (base.success && base.data.SMTP_URL) {
    // A mail needs a sender and links that work outside this machine: neither is guessed.
    if (!base.data.MAIL_FROM) problems.push('MAIL_FROM: must be set when SMTP_URL is (the From of every mail)');
    if (!base.data.PUBLIC_URL)
      problems.push('PUBLIC_URL: must be set when SMTP_URL is (the links in mail point at it)');
  }
  if (!base.success || !users.success || problems.length) throw new ConfigError(problems);
  return { ...base.data, users: users.data };
}
