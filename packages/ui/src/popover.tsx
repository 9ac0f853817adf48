import * as Primitive from '@radix-ui/react-popover';
import type { ComponentPropsWithRef } from 'react';
import { cn } from './cn';

/** Radix's popover (focus management, Escape, outside click) with this app's look. */
export const Popover = Primitive.Root;
export const PopoverTrigger = Primitive.Trigger;
export const PopoverClose = Primitive.Close;
export const PopoverAnchor = Primitive.Anchor;

export function PopoverContent({
  className,
  sideOffset = 6,
  align = 'start',
  ...rest
}: ComponentPropsWithRef<typeof Primitive.Content>) {
  return (
    <Primitive.Portal>
      <Primitive.Content
        sideOffset={sideOffset}
        align={align}
        collisionPadding={8}
        className={cn(
          'z-50 max-h-(--radix-popover-content-available-height) w-80 max-w-[calc(100vw-1rem)] overflow-y-auto',
          'rounded-xl border border-border bg-surface text-sm text-foreground shadow-lg outline-none',
          className,
        )}
        {...rest}
      />
    </Primitive.Portal>
  );
}
