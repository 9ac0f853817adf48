/** A batch on its way: its rows being completed, and the next batch's keys being read. */
interface Step<Row, Key> {
  rows: Promise<Row[]>;
  next: Promise<Key[]>;
}

const ignore = () => undefined;

/** Batches completed ahead of the one being written. */
const AHEAD = 2;

/**
 * A resource's export rows as batches. `read(last)` reads a batch's keys: the rows in the export's
 * order, after the last of the previous batch (a keyset continuation, never OFFSET, so the last
 * batch costs what the first does). `complete(keys)` turns them into the rows written (reading
 * what else they carry: role names, attribute values); without it the keys are the rows.
 *
 * A batch's completion and the next batch's keys are read at once, as soon as its own keys are
 * in: the keyset chain waits on the keys alone. While a batch is written the next AHEAD are on
 * their way, and no more: a consumer that stops iterating (a closed download) stops the queries,
 * and a slow one holds them back. With one batch ahead, read whole, the API waited on the
 * database for a quarter of a million-row export with six attribute columns: the next batch's
 * queries were sent only once the event loop had written the last (docs/PERFORMANCE.md). The
 * first batch is read before this resolves, so a failing query is an error answer rather than a
 * 200 cut short.
 */
export async function keysetBatches<Row, Key = Row>(
  read: (last: Key | undefined) => Promise<Key[]>,
  size: number,
  complete: (keys: Key[]) => Promise<Row[]> = async (keys) => keys as unknown as Row[],
): Promise<AsyncGenerator<Row[]>> {
  const none = Promise.resolve([] as Key[]);
  const start = (keys: Key[]): Step<Row, Key> => {
    const rows = keys.length === 0 ? Promise.resolve([]) : complete(keys);
    const next = keys.length < size ? none : read(keys[keys.length - 1] as Key);
    // A consumer that stops early leaves these unawaited: their failure must not go unhandled.
    rows.catch(ignore);
    next.catch(ignore);
    return { rows, next };
  };
  const first = start(await read(undefined));
  await first.rows;
  return (async function* batches() {
    const queue: Array<Promise<Step<Row, Key>>> = [Promise.resolve(first)];
    for (;;) {
      // Each batch starts when the previous one's keys are in.
      while (queue.length <= AHEAD) {
        const step = (queue[queue.length - 1] as Promise<Step<Row, Key>>).then((s) => s.next.then(start));
        step.catch(ignore);
        queue.push(step);
      }
      const step = await (queue.shift() as Promise<Step<Row, Key>>);
      const rows = await step.rows;
      if (rows.length === 0) return;
      yield rows;
    }
  })();
}
