export type ClassValue = string | number | bigint | boolean | null | undefined | ClassDictionary | ClassValue[];
export type ClassDictionary = Record<string, boolean | null | undefined>;

/**
 * Joins class names, skipping falsy values; objects contribute their truthy keys.
 * It does not resolve conflicting Tailwind utilities, so components put `className` last
 * and callers should extend rather than fight the base classes.
 */
export function cn(...inputs: ClassValue[]): string {
  const out: string[] = [];
  for (const input of inputs) {
    if (!input && input !== 0) continue;
    if (Array.isArray(input)) {
      const nested = cn(...input);
      if (nested) out.push(nested);
    } else if (typeof input === 'object') {
      for (const [key, on] of Object.entries(input)) if (on) out.push(key);
    } else if (input !== true) {
      out.push(String(input));
    }
  }
  return out.join(' ');
}
