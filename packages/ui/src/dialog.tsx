import * as Primitive from '@radix-ui/react-dialog';
import type { ComponentPropsWithRef, ReactNode } from 'react';
import { cn } from './cn';
import { XIcon } from './icons';

/** Radix's dialog (focus trap, Escape, focus return, aria-modal) with this app's look. */
export const Dialog = Primitive.Root;
export const DialogTrigger = Primitive.Trigger;
export const DialogClose = Primitive.Close;

export interface DialogContentProps extends Omit<ComponentPropsWithRef<typeof Primitive.Content>, 'title'> {
  title: ReactNode;
  /** Read out with the title when the dialog opens. */
  description?: ReactNode;
  /** Accessible name of the corner close button; the button is shown only with it. */
  closeLabel?: string;
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg';
}

const widths = { sm: 'max-w-sm', md: 'max-w-md', lg: 'max-w-lg' };

export function DialogContent({
  title,
  description,
  closeLabel,
  footer,
  size = 'md',
  className,
  children,
  ...rest
}: DialogContentProps) {
  return (
    <Primitive.Portal>
      <Primitive.Overlay className="fixed inset-0 z-50 bg-black/40 backdrop-blur-[2px]" />
      <Primitive.Content
        className={cn(
          'fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 flex-col',
          'rounded-xl border border-border bg-surface text-foreground shadow-2xl outline-none',
          widths[size],
          className,
        )}
        // Without a description Radix warns unless told, by an explicit undefined, that none is meant.
        {...(description ? {} : { 'aria-describedby': undefined })}
        {...rest}
      >
        <div className="flex items-start justify-between gap-4 px-5 pt-5">
          <div className="min-w-0">
            <Primitive.Title className="text-base font-semibold tracking-tight">{title}</Primitive.Title>
            {description ? (
              <Primitive.Description className="mt-1 text-sm text-pretty text-muted-foreground">
                {description}
              </Primitive.Description>
            ) : null}
          </div>
          {closeLabel ? (
            <Primitive.Close
              aria-label={closeLabel}
              className="-mt-1 -mr-2 flex size-8 shrink-0 items-center justify-center rounded-md text-muted-foreground hover:bg-surface-muted hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
            >
              <XIcon />
            </Primitive.Close>
          ) : null}
        </div>
        {children ? <div className="min-h-0 overflow-y-auto px-5 pt-4 text-sm">{children}</div> : null}
        {footer ? (
          <div className="mt-5 flex flex-col-reverse gap-2 border-t border-border px-5 py-3 sm:flex-row sm:justify-end">
            {footer}
          </div>
        ) : (
          <div className="h-5" />
        )}
      </Primitive.Content>
    </Primitive.Portal>
  );
}
