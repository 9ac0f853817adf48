import { CSV_DELIMITERS, type CsvDelimiter } from './types.js';

/** Records looked at: enough to see a pattern, few enough to stay inside the sampled head. */
const SAMPLE_RECORDS = 20;

/** Field counts of the first records when split at `delimiter` outside double quotes. */
function fieldCounts(sample: string, delimiter: string): number[] {
  const counts: number[] = [];
  let fields = 1;
  let inQuotes = false;
  let empty = true;
  for (let i = 0; i < sample.length && counts.length < SAMPLE_RECORDS; i++) {
    const char = sample[i];
    if (char === '"') inQuotes = !inQuotes;
    else if (inQuotes) continue;
    else if (char === delimiter) fields++;
    else if (char === '\n' || char === '\r') {
      if (!empty) counts.push(fields);
      fields = 1;
      empty = true;
      continue;
    }
    empty = false;
  }
  return counts;
}

/**
 * The delimiter among `,` `;` tab `|` that splits the first records into the same number of
 * fields (more than one), the most fields winning; failing that, the one that splits the header
 * most; `,` for a one-column file. The sample is cut at its last line break, since the head of a
 * file may end mid-record.
 */
export function detectDelimiter(head: string): CsvDelimiter {
  const lastBreak = head.lastIndexOf('\n');
  const sample = lastBreak > 0 ? head.slice(0, lastBreak + 1) : head;
  let best: { delimiter: CsvDelimiter; consistent: boolean; fields: number } | null = null;
  for (const delimiter of CSV_DELIMITERS) {
    const counts = fieldCounts(sample, delimiter);
    const fields = counts[0] ?? 1;
    if (fields < 2) continue;
    const consistent = counts.every((count) => count === fields);
    const better =
      !best || (consistent && !best.consistent) || (consistent === best.consistent && fields > best.fields);
    if (better) best = { delimiter, consistent, fields };
  }
  return best?.delimiter ?? ',';
}
