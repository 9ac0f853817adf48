import fs from 'node:fs';
import path from 'node:path';

/**
 * Sections of the report that their own runs write (`--soak`, `--webhooks`), each between an
 * HTML comment pair. A full run rewrites the rest of the file and keeps them.
 */
export const SECTIONS = ['soak', 'webhooks'] as const;
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

/** A full run's new report text with the previous file's own-run sections carried over. */
export function keepSections(oldText: string, newText: string): string {
  let out = newText;
  for (const name of SECTIONS) {
    const kept = sectionOf(oldText, name);
    if (kept) out = out.replace(/\n## Notes\n/, () => `\n${kept}\n\n## Notes\n`);
  }
  return out;
}
