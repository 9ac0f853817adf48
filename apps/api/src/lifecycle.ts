/**
 * The process's place in its life, as a load balancer needs to see it. On SIGTERM an instance
 * first drains: it keeps answering every request but says "not ready", so the balancer's health
 * check takes it out of rotation before the listener closes; only then does it stop.
 */
export interface Lifecycle {
  readonly draining: boolean;
  drain(): void;
}

export function createLifecycle(): Lifecycle {
  let draining = false;
  return {
    get draining() {
      return draining;
    },
    drain() {
      draining = true;
    },
  };
}
