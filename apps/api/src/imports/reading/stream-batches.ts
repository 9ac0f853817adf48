import type { Readable } from 'node:stream';

/**
 * A readable's objects in batches of what it has buffered: Node's own async iterator awaits
 * once per object, which on a million small records (or the tokens of a JSON file) costs more
 * than the parsing itself.
 */
export async function* batches<T>(stream: Readable): AsyncGenerator<T[]> {
  let failure: unknown = null;
  let ended = false;
  let wake: (() => void) | null = null;
  const signal = () => {
    wake?.();
    wake = null;
  };
  stream.on('readable', signal);
  stream.once('end', () => {
    ended = true;
    signal();
  });
  stream.once('error', (error) => {
    failure = error;
    signal();
  });
  for (;;) {
    if (failure) throw failure;
    const batch: T[] = [];
    for (let item = stream.read() as T | null; item !== null; item = stream.read() as T | null) batch.push(item);
    if (batch.length > 0) {
      yield batch;
      continue;
    }
    if (ended) return;
    await new Promise<void>((resolve) => {
      wake = resolve;
    });
  }
}
