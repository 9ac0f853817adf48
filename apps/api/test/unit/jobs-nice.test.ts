import { describe, expect, it } from 'vitest';
import { createRequestActivity, isProbe, reportServed } from '../../src/request-activity.js';
import { niceDelay } from '../../src/jobs/runner.js';

describe('how long an instance has been serving anyone', () => {
  it('adds up the time at least one request was in flight, overlapping ones counted once', () => {
    let now = 0;
    const activity = createRequestActivity(() => now);
    expect(activity.servedMs()).toBe(0);
    activity.began();
    now = 10;
    activity.began(); // a second request while the first is in flight
    now = 30;
    activity.ended();
    expect(activity.servedMs()).toBe(30); // still one in flight: counting on
    now = 40;
    activity.ended();
    now = 100; // nobody served from 40 to 100
    expect(activity.servedMs()).toBe(40);
    // An end reported once too often never makes a count below nothing.
    activity.ended();
    activity.began();
    now = 105;
    expect(activity.servedMs()).toBe(45);
  });

  it('leaves out the checks of balancers and scrapers, whatever their query', () => {
    expect(isProbe('/api/health')).toBe(true);
    expect(isProbe('/api/ready?verbose=1')).toBe(true);
    expect(isProbe('/api/metrics')).toBe(true);
    expect(isProbe('/api/users')).toBe(false);
    expect(isProbe('/trpc/users.list?input=%7B%7D')).toBe(false);
  });
});

describe('the pause after a chunk', () => {
  it('is the ratio times how long someone was served while the chunk ran', () => {
    expect(niceDelay({ niceRatio: 1 }, 250, false)).toBe(250);
    expect(niceDelay({ niceRatio: 0.5 }, 250, false)).toBe(125);
  });

  it('is none when nobody was served, for a dry run, or at a ratio of 0', () => {
    expect(niceDelay({ niceRatio: 1 }, 0, false)).toBe(0);
    expect(niceDelay({ niceRatio: 1 }, 250, true)).toBe(0);
    expect(niceDelay({ niceRatio: 0 }, 250, false)).toBe(0);
  });

  it('is cut to two seconds, so a stopping runner is not held by a long chunk', () => {
    expect(niceDelay({ niceRatio: 10 }, 60_000, false)).toBe(2_000);
  });
});

describe('what the mail thread hears of the requests', () => {
  it('is told how long requests were in flight since the last report, and nothing while none are', async () => {
    const activity = createRequestActivity();
    const heard: number[] = [];
    const stop = reportServed(activity, (ms) => heard.push(ms), 20);
    try {
      await new Promise((r) => setTimeout(r, 70));
      expect(heard).toEqual([]);
      activity.began();
      await new Promise((r) => setTimeout(r, 100));
      activity.ended();
      await new Promise((r) => setTimeout(r, 40));
      const told = heard.reduce((a, b) => a + b, 0);
      expect(told).toBeGreaterThanOrEqual(90);
      expect(told).toBeLessThanOrEqual(activity.servedMs());
      const after = heard.length;
      await new Promise((r) => setTimeout(r, 70));
      expect(heard.length).toBe(after);
    } finally {
      stop();
    }
  });
});
