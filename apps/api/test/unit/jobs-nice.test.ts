import { describe, expect, it } from 'vitest';
import { createRequestActivity, isProbe } from '../../src/jobs/request-activity.js';
import { niceDelay } from '../../src/jobs/runner.js';

describe('whether an instance is serving anyone', () => {
  it('knows of a request in flight, and of one that ended since a moment, and forgets older ones', () => {
    let now = 0;
    const activity = createRequestActivity(() => now);
    expect(activity.servedSince(0)).toBe(false);
    activity.began();
    expect(activity.servedSince(100)).toBe(true);
    now = 50;
    activity.ended();
    expect(activity.servedSince(40)).toBe(true);
    expect(activity.servedSince(60)).toBe(false);
    // An end reported twice (an answer and then its socket) never makes a count below nothing.
    activity.ended();
    activity.began();
    expect(activity.servedSince(1_000)).toBe(true);
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
  const served = createRequestActivity();
  served.began();
  const idle = createRequestActivity();

  it('is the ratio times the chunk while someone is served', () => {
    expect(niceDelay({ niceRatio: 1 }, served, 100, 350, false)).toBe(250);
    expect(niceDelay({ niceRatio: 0.5 }, served, 100, 350, false)).toBe(125);
  });

  it('is none on an idle instance, an instance without requests, a dry run or a ratio of 0', () => {
    expect(niceDelay({ niceRatio: 1 }, idle, 100, 350, false)).toBe(0);
    expect(niceDelay({ niceRatio: 1 }, undefined, 100, 350, false)).toBe(0);
    expect(niceDelay({ niceRatio: 1 }, served, 100, 350, true)).toBe(0);
    expect(niceDelay({ niceRatio: 0 }, served, 100, 350, false)).toBe(0);
  });

  it('is cut to two seconds, so a stopping runner is not held by a long chunk', () => {
    expect(niceDelay({ niceRatio: 10 }, served, 0, 60_000, false)).toBe(2_000);
  });
});
