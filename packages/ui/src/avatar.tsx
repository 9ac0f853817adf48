import type { CSSProperties } from 'react';
import { cn } from './cn';

/** Up to two initials of a name ("Ann Lee" → "AL", "ann" → "A"). */
export function initialsOf(name: string): string {
  // Words that start with a letter: "Ann (contractor)" is "A", not "A(".
  const words = name
    .trim()
    .split(/\s+/)
    .filter((word) => /^\p{L}/u.test(word));
  const first = words[0]?.[0] ?? '';
  const last = words.length > 1 ? (words[words.length - 1]?.[0] ?? '') : '';
  return (first + last).toUpperCase() || '?';
}

// A stable hue per name, so the same person always gets the same colour.
function hueOf(name: string): number {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) % 360;
  return hash;
}

export interface AvatarProps {
  name: string;
  size?: 'sm' | 'md' | 'lg';
  className?: string;
}

const sizes = { sm: 'size-7 text-[11px]', md: 'size-9 text-xs', lg: 'size-12 text-base' };

/** Initials on a tinted disc; decorative, since the name is always shown or announced beside it. */
export function Avatar({ name, size = 'md', className }: AvatarProps) {
  return (
    // The initials are drawn by CSS, not as text: they are decoration, and as text they would
    // become part of a button's visible label that its accessible name must contain.
    <span
      aria-hidden="true"
      data-initials={initialsOf(name)}
      style={{ '--avatar-hue': hueOf(name) } as CSSProperties}
      className={cn(
        'inline-flex shrink-0 items-center justify-center rounded-full font-semibold tracking-wide select-none',
        'bg-[oklch(0.93_0.05_var(--avatar-hue))] text-[oklch(0.38_0.1_var(--avatar-hue))]',
        'dark:bg-[oklch(0.32_0.07_var(--avatar-hue))] dark:text-[oklch(0.9_0.06_var(--avatar-hue))]',
        'before:content-[attr(data-initials)]',
        sizes[size],
        className,
      )}
    />
  );
}
