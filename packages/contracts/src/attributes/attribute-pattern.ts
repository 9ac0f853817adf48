import { RE2JS } from 're2js';

const patterns = new Map<string, RE2JS | null>();

/**
 * An administrator's pattern, compiled by RE2 (linear time whatever the pattern and the value: no
 * pattern can stall a request); null when RE2 cannot read it (back-references, look-around).
 */
export function compilePattern(pattern: string): RE2JS | null {
  if (patterns.has(pattern)) return patterns.get(pattern) ?? null;
  let compiled: RE2JS | null = null;
  try {
    compiled = RE2JS.compile(pattern);
  } catch {
    compiled = null;
  }
  if (patterns.size > 500) patterns.clear();
  patterns.set(pattern, compiled);
  return compiled;
}
