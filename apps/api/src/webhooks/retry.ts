/** The longest wait between two attempts of one delivery. */
export const RETRY_CAP_MS = 10 * 3_600_000;
/** Each delay is its nominal value ±25 %, so endpoints that failed together are not retried together. */
const RETRY_JITTER = 0.25;
/** The longest an open circuit waits before letting a probe through. */
export const CIRCUIT_COOLDOWN_CAP_MS = 3_600_000;

/**
 * Milliseconds to wait after failed attempt `attempt` (1-based) before the next one: the base
 * times 4^(attempt-1) (10 s, 40 s, 2 min 40 s, 10 min 40 s, … by default), capped at 10 hours,
 * with jitter. `random` returns [0, 1) like Math.random, so tests can pin it.
 */
export function retryDelay(attempt: number, config: { retryBaseMs: number }, random: () => number = Math.random) {
  const nominal = Math.min(RETRY_CAP_MS, config.retryBaseMs * 4 ** Math.max(0, attempt - 1));
  const factor = 1 - RETRY_JITTER + 2 * RETRY_JITTER * random();
  return Math.min(RETRY_CAP_MS, Math.round(nominal * factor));
}

/** How long the circuit stays open after its `opens`-th opening since the last success: doubling, capped. */
export function circuitCooldown(opens: number, config: { circuitCooldownMs: number }): number {
  return Math.min(CIRCUIT_COOLDOWN_CAP_MS, config.circuitCooldownMs * 2 ** Math.max(0, opens - 1));
}
