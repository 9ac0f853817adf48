/** Ids go in one IN() per 1 000, so no statement grows past a few kilobytes. */
const CHUNK = 1_000;

export function chunks<T>(list: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}
