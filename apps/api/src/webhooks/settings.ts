import type { AppConfig } from '../config.js';
import { PRUNE_EVERY_MS } from '../housekeeping/repeat.js';
import { type SecretKeys, secretKeys } from './secret-box.js';

/** The webhook settings of the configuration, in the units the code uses (milliseconds). */
export interface WebhooksSettings {
  allowPrivate: boolean;
  timeoutMs: number;
  maxAttempts: number;
  retryBaseMs: number;
  circuitThreshold: number;
  circuitCooldownMs: number;
  disableAfterMs: number;
  concurrency: number;
  /**
   * How long a claimed delivery stays the claimer's: past it, another dispatcher takes it over
   * (the claimer crashed). It outlasts an attempt's timeout with room for recording the outcome.
   */
  leaseMs: number;
  /** How often an idle dispatcher looks for due deliveries. */
  pollMs: number;
  /** Webhook history older than this is deleted (retention.ts). */
  retentionMs: number;
  /** How often each dispatcher prunes, give or take a quarter so instances spread out. */
  pruneEveryMs: number;
  /** Opens the endpoints' signing secrets (secret-box.ts). */
  secretKeys: SecretKeys;
}

/** The keys of the configuration that seal and open signing secrets. */
export const secretKeysOf = (config: Pick<AppConfig, 'SECRETS_KEY' | 'SECRETS_KEY_PREVIOUS'>) =>
  secretKeys(config.SECRETS_KEY, config.SECRETS_KEY_PREVIOUS);

export function webhooksSettings(config: AppConfig): WebhooksSettings {
  const timeoutMs = Math.round(config.WEBHOOKS_TIMEOUT_SECONDS * 1000);
  return {
    allowPrivate: config.WEBHOOKS_ALLOW_PRIVATE,
    timeoutMs,
    maxAttempts: config.WEBHOOKS_MAX_ATTEMPTS,
    retryBaseMs: Math.round(config.WEBHOOKS_RETRY_BASE_SECONDS * 1000),
    circuitThreshold: config.WEBHOOKS_CIRCUIT_THRESHOLD,
    circuitCooldownMs: Math.round(config.WEBHOOKS_CIRCUIT_COOLDOWN_SECONDS * 1000),
    disableAfterMs: Math.round(config.WEBHOOKS_DISABLE_AFTER_DAYS * 86_400_000),
    concurrency: config.WEBHOOKS_CONCURRENCY,
    leaseMs: 2 * timeoutMs + 5_000,
    pollMs: 500,
    retentionMs: config.WEBHOOKS_RETENTION_DAYS * 86_400_000,
    pruneEveryMs: PRUNE_EVERY_MS,
    secretKeys: secretKeysOf(config),
  };
}
