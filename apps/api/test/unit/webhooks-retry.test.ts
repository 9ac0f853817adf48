import { describe, expect, it } from 'vitest';
import type { ClaimedDelivery } from '../../src/webhooks/claims.js';
import { nextHealth, type Outcome } from '../../src/webhooks/outcomes.js';
import { CIRCUIT_COOLDOWN_CAP_MS, circuitCooldown, RETRY_CAP_MS, retryDelay } from '../../src/webhooks/retry.js';
import type { WebhooksSettings } from '../../src/webhooks/settings.js';

const settings = { retryBaseMs: 10_000, circuitCooldownMs: 60_000, circuitThreshold: 3 } as WebhooksSettings;
const mid = () => 0.5;

describe('retryDelay', () => {
  it('waits 10 s, 40 s, 2 min 40 s, … by default: four times longer each time', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => retryDelay(n, settings, mid))).toEqual([
      10_000, 40_000, 160_000, 640_000, 2_560_000, 10_240_000, 36_000_000,
    ]);
  });

  it('never waits more than 10 hours', () => {
    for (const attempt of [7, 8, 12, 20, 100]) {
      for (const r of [0, 0.5, 0.999999])
        expect(retryDelay(attempt, settings, () => r)).toBeLessThanOrEqual(RETRY_CAP_MS);
    }
    expect(retryDelay(100, settings, mid)).toBe(RETRY_CAP_MS);
  });

  it('adds jitter within ±25 % of the nominal delay', () => {
    for (let attempt = 1; attempt <= 6; attempt++) {
      const nominal = 10_000 * 4 ** (attempt - 1);
      expect(retryDelay(attempt, settings, () => 0)).toBe(nominal * 0.75);
      expect(Math.abs(retryDelay(attempt, settings, () => 0.999999) - nominal * 1.25)).toBeLessThan(nominal * 1e-5);
      for (let i = 0; i < 200; i++) {
        const delay = retryDelay(attempt, settings);
        expect(delay).toBeGreaterThanOrEqual(nominal * 0.75);
        expect(delay).toBeLessThanOrEqual(nominal * 1.25);
      }
    }
  });

  it('spreads retries that fail together', () => {
    const delays = new Set(Array.from({ length: 50 }, () => retryDelay(3, settings)));
    expect(delays.size).toBeGreaterThan(40);
  });
});

describe('the circuit breaker', () => {
  it('doubles the cooldown with each opening, up to an hour', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => circuitCooldown(n, settings))).toEqual([
      60_000,
      120_000,
      240_000,
      480_000,
      960_000,
      1_920_000,
      CIRCUIT_COOLDOWN_CAP_MS,
      CIRCUIT_COOLDOWN_CAP_MS,
    ]);
  });

  const healthy = {
    active: true,
    failing_since: null,
    consecutive_failures: 0,
    circuit_open_until: null,
    circuit_opens: 0,
  };
  const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
  const outcome = (ok: boolean, s: number, probe = false): Outcome => ({
    claim: { probe } as ClaimedDelivery,
    result: { ok, statusCode: ok ? 200 : 500, latencyMs: 1, excerpt: null, error: ok ? null : 'HTTP 500' },
    startedAt: at(s),
    endedAt: at(s),
  });

  it('opens after the threshold of consecutive failures, not before', () => {
    const two = nextHealth(healthy, [outcome(false, 1), outcome(false, 2)], settings);
    expect(two).toMatchObject({ consecutive_failures: 2, circuit_open_until: null, failing_since: at(1) });
    const three = nextHealth(two, [outcome(false, 3)], settings);
    expect(three).toMatchObject({
      consecutive_failures: 3,
      circuit_opens: 1,
      circuit_open_until: new Date(at(3).getTime() + 60_000),
    });
  });

  it('counts late failures without reopening an open circuit', () => {
    const open = nextHealth(
      healthy,
      [1, 2, 3].map((s) => outcome(false, s)),
      settings,
    );
    const later = nextHealth(open, [outcome(false, 4), outcome(false, 5)], settings);
    expect(later).toMatchObject({
      consecutive_failures: 5,
      circuit_opens: 1,
      circuit_open_until: open.circuit_open_until,
    });
  });

  it('reopens for twice as long when the half-open probe fails, and closes when one succeeds', () => {
    const open = nextHealth(
      healthy,
      [1, 2, 3].map((s) => outcome(false, s)),
      settings,
    );
    const probed = nextHealth(open, [outcome(false, 100, true)], settings);
    expect(probed).toMatchObject({ circuit_opens: 2, circuit_open_until: new Date(at(100).getTime() + 120_000) });
    const closed = nextHealth(probed, [outcome(true, 300, true)], settings);
    expect(closed).toEqual({ ...healthy });
  });

  it('a success in the middle ends the failing streak', () => {
    const h = nextHealth(healthy, [outcome(false, 1), outcome(true, 2), outcome(false, 3)], settings);
    expect(h).toMatchObject({ consecutive_failures: 1, failing_since: at(3), circuit_open_until: null });
  });
});
