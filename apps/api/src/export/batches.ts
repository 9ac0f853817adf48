/**
 * A resource's export rows as batches, read by `read(last)` (a keyset continuation after the
 * last row of the previous batch; never OFFSET, so the last batch costs what the first does).
 * The first batch is read before this resolves, so a failing query is an error answer rather
 * than a 200 cut short. While a batch is being written the next one is read, one ahead and no
 * more: a consumer that stops iterating (a closed download) stops the queries, and a slow one
 * holds them back.
 */
export async function keysetBatches<Row>(
  read: (last: Row | undefined) => Promise<Row[]>,
  size: number,
): Promise<AsyncGenerator<Row[]>> {
  const first = await read(undefined);
  return (async function* batches() {
    let rows = first;
    while (rows.length > 0) {
      // The next batch's query runs while this one is written: its keyset bound is already known.
      const next = rows.length < size ? null : read(rows[rows.length - 1]);
      // A consumer that stops early leaves `next` unawaited: its failure must not go unhandled.
      next?.catch(() => undefined);
      yield rows;
      if (!next) return;
      rows = await next;
    }
  })();
}
