import type { AppConfig } from '../config.js';
import { PRUNE_EVERY_MS } from '../housekeeping/repeat.js';
import { type SecretKeys, secretKeys } from '../webhooks/secret-box.js';

/** The mail settings of the configuration, in the units the code uses (milliseconds). */
export interface MailSettings {
  /** SMTP_URL is set: mail is queued and sent. Off, nothing is queued and callers hand out the links. */
  enabled: boolean;
  smtpUrl: string | null;
  /** The From header. */
  from: string;
  /** The host of Message-IDs: the From address's domain. */
  messageIdDomain: string;
  /** Links in mail start with this (no trailing slash). */
  publicUrl: string;
  maxAttempts: number;
  retryBaseMs: number;
  timeoutMs: number;
  /**
   * How long a claimed message stays the claimer's: past it, another sender takes it up (the
   * claimer died). It outlasts the wait of the last message of a claim behind the others (every
   * attempt before it timing out) and its own attempt, with room for recording the outcome.
   */
  leaseMs: number;
  concurrency: number;
  /** How many claimed messages a sender holds at most, sending `concurrency` of them at a time. */
  prefetch: number;
  /** How often an idle sender looks for due messages. */
  pollMs: number;
  /** The wait before the next message, in times how long requests were in flight (BACKGROUND_NICE_RATIO). */
  niceRatio: number;
  retentionMs: number;
  pruneEveryMs: number;
  /** Seal and open the stored variables (webhooks/secret-box.ts). */
  secretKeys: SecretKeys;
}

/** Without PUBLIC_URL (only allowed when mail is off), links point at this instance as configured. */
function fallbackPublicUrl(config: Pick<AppConfig, 'HOST' | 'PORT'>): string {
  const wildcard = config.HOST === '0.0.0.0' || config.HOST === '::' || config.HOST === '[::]';
  return `http://${wildcard ? 'localhost' : config.HOST}:${config.PORT}`;
}

const addressOf = (from: string) => (/<([^<>]+)>\s*$/.exec(from)?.[1] ?? from).trim();

/**
 * A sender claims up to this many rounds of `concurrency` messages at once: one claim feeds the
 * connections for several rounds, so they never wait on the database between two messages
 * (claiming exactly the free connections held the rate near 250 mails/s, a round trip per few).
 */
const PREFETCH_ROUNDS = 4;

export function mailSettings(config: AppConfig): MailSettings {
  const timeoutMs = Math.round(config.MAIL_TIMEOUT_SECONDS * 1000);
  const from = config.MAIL_FROM ?? 'no-reply@localhost';
  return {
    enabled: config.SMTP_URL !== undefined,
    smtpUrl: config.SMTP_URL ?? null,
    from,
    messageIdDomain: addressOf(from).split('@').at(-1) || 'localhost',
    publicUrl: config.PUBLIC_URL ?? fallbackPublicUrl(config),
    maxAttempts: config.MAIL_MAX_ATTEMPTS,
    retryBaseMs: Math.round(config.MAIL_RETRY_BASE_SECONDS * 1000),
    timeoutMs,
    leaseMs: (PREFETCH_ROUNDS + 1) * timeoutMs + 5_000,
    concurrency: config.MAIL_CONCURRENCY,
    prefetch: PREFETCH_ROUNDS * config.MAIL_CONCURRENCY,
    pollMs: 1_000,
    niceRatio: config.BACKGROUND_NICE_RATIO,
    retentionMs: config.MAIL_RETENTION_DAYS * 86_400_000,
    pruneEveryMs: PRUNE_EVERY_MS,
    secretKeys: secretKeys(config.SECRETS_KEY, config.SECRETS_KEY_PREVIOUS),
  };
}

/** The absolute link to `path` of the product (`/invite/<token>`), as mail and copied links carry it. */
export const publicLink = (settings: Pick<MailSettings, 'publicUrl'>, path: string) =>
  `${settings.publicUrl}${path.startsWith('/') ? path : `/${path}`}`;
