import fs from 'node:fs';
import path from 'node:path';

/**
 * Sections of the report that their own runs write (`--soak`, `--webhooks`, `--jobs`, `--imports`, `--roles`,
 * `--password-reset`), each between an
 * HTML comment pair. A full run rewrites the rest of the file and keeps them.
 */
export const SECTIONS = [
  'soak',
  'webhooks',
  'jobs',
  'imports',
  'roles',
  'password-reset',
  'invitations',
  'two-factor',
  'growth',
] as const;
export type SectionName = (typeof SECTIONS)[number];

const marker = (name: SectionName, edge: 'start' | 'end') => `<!-- ${name}:${edge} -->`;

export function sectionMarkers(name: SectionName) {
  return { start: marker(name, 'start'), end: marker(name, 'end') };
}

function sectionOf(text: string, name: SectionName): string | null {
  const { start, end } = sectionMarkers(name);
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  return from >= 0 && to > from ? text.slice(from, to + end.length) : null;
}

/** Puts one section into the report, replacing its previous text, else before "## Notes" (else at the end). */
export function writeSection(file: string, name: SectionName, text: string) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const old = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Performance\n';
  const previous = sectionOf(old, name);
  const next = previous
    ? old.replace(previous, () => text)
    : /\n## Notes\n/.test(old)
      ? old.replace(/\n## Notes\n/, () => `\n${text}\n\n## Notes\n`)
      : `${old.trimEnd()}\n\n${text}\n`;
  fs.writeFileSync(file, next);
}

/**
 * A full run's new report text with the previous file's own-run sections carried over. One the
 * new text already holds (inside the hand-written notes, which a full run keeps whole) is not
 * added again: a full run used to write every such section twice.
 */
export function keepSections(oldText: string, newText: string): string {
  let out = newText;
  for (const name of SECTIONS) {
    const kept = sectionOf(oldText, name);
    if (kept && !sectionOf(out, name)) out = out.replace(/\n## Notes\n/, () => `\n${kept}\n\n## Notes\n`);
  }
  return out;
}

const SUBSET = { start: '<!-- subset:start -->', end: '<!-- subset:end -->' };

/**
 * A run of some scenarios (`--only`) into the full report: its machine, run and result tables
 * and its scenarios in detail, as a section of their own labelled with the command — the full
 * run's tables stay as they were. The next subset run replaces the section; a full run drops it.
 */
export function writeSubsetSection(file: string, report: string, command: string, date: Date) {
  const between = (from: string, to: string) => {
    const a = report.indexOf(from);
    const b = report.indexOf(to, a);
    return a >= 0 && b > a ? report.slice(a, b).trim() : '';
  };
  const deeper = (text: string) => text.replace(/^(#{2,5}) /gm, '$1# ');
  const text = [
    SUBSET.start,
    '## Subset run (not the full run above)',
    '',
    `Written on ${date.toISOString().replace(/\.\d+Z$/, 'Z')} by a run of some scenarios only; the tables above are the last full run's. Rerun it with:`,
    '',
    `    ${command}`,
    '',
    deeper(between('## Machine', '<!-- bench:notes:start -->')),
    '',
    deeper(between('## Scenarios in detail', '## Method')),
    SUBSET.end,
  ].join('\n');
  const old = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Performance\n';
  const a = old.indexOf(SUBSET.start);
  const b = old.indexOf(SUBSET.end);
  const next =
    a >= 0 && b > a
      ? old.slice(0, a) + text + old.slice(b + SUBSET.end.length)
      : /\n<!-- bench:notes:start -->/.test(old)
        ? old.replace(/\n<!-- bench:notes:start -->/, () => `\n${text}\n\n<!-- bench:notes:start -->`)
        : `${old.trimEnd()}\n\n${text}\n`;
  fs.writeFileSync(file, next);
}
