/**
 * A loop's pause that another part of the process can cut short (the webhook dispatcher when a
 * commit queued deliveries, the job runner when a job ended). A wake-up that comes while the
 * loop is busy is kept, so its next sleep is skipped instead of missing the news.
 */
export function wakeableSleep() {
  let wake: (() => void) | null = null;
  let woken = false;
  const wakeUp = () => {
    woken = true;
    const resume = wake;
    wake = null;
    resume?.();
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken) {
        woken = false;
        resolve();
        return;
      }
      const timer = setTimeout(() => {
        wake = null;
        resolve();
      }, ms);
      wake = () => {
        clearTimeout(timer);
        woken = false;
        resolve();
      };
    });
  return { sleep, wakeUp };
}
