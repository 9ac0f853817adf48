import type { ComponentPropsWithRef } from 'react';
import { cn } from './cn';

export interface ScrollRegionProps extends Omit<ComponentPropsWithRef<'section'>, 'aria-label'> {
  /** What the box holds, said when focus lands on it ("Skipped users"). */
  label: string;
}

/**
 * A box whose content scrolls (give it a max height): focusable, so the keyboard can scroll it
 * (axe: scrollable-region-focusable), and named, since focus lands on the box itself.
 */
export function ScrollRegion({ label, className, children, ...rest }: ScrollRegionProps) {
  return (
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
      tabIndex={0}
      className={cn(
        'overflow-y-auto focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring',
        className,
      )}
      {...rest}
    >
      {children}
    </section>
  );
}
