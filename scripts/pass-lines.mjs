// A child's output passed on as it comes, and handed over line by line as well: `npm test`
// (scripts/test-all.mjs) and its background checks (scripts/run-checks.mjs) keep the lines that
// say why something failed, since a long log's tail is what is read.

/** Writes each chunk of `from` to `to`, and calls `onLine` with each whole line; returns a flush for the last, unended one. */
export function passLines(from, to, onLine) {
  let rest = '';
  from.on('data', (chunk) => {
    to.write(chunk);
    const lines = (rest + chunk.toString('utf8')).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  });
  return () => {
    if (rest) onLine(rest);
    rest = '';
  };
}
