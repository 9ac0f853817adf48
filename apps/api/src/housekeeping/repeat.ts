/** The background prunes (webhook history, sessions, rate-limit rows) run about this often. */
export const PRUNE_EVERY_MS = 3_600_000;

export interface Repeating {
  /** Cancels the next run and waits for one in progress to end. */
  stop(): Promise<void>;
}

/**
 * Runs `task` every `everyMs`, give or take a quarter, so instances sharing a database spread
 * their passes out; a batch another instance already cleared is simply found empty. A run
 * starts only after the previous one ended, and `task` is expected to handle its own errors.
 */
export function repeatAbout(task: () => Promise<void>, everyMs: number, random: () => number = Math.random): Repeating {
  let running = true;
  let timer: NodeJS.Timeout | null = null;
  let current: Promise<void> | null = null;
  const schedule = () => {
    timer = setTimeout(
      () => {
        timer = null;
        current = task().finally(() => {
          current = null;
          if (running) schedule();
        });
      },
      everyMs * (0.75 + random() / 2),
    );
  };
  schedule();
  return {
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      await current;
    },
  };
}
