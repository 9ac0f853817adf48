import type { ReactNode } from 'react';
import { Button } from './button';
import { Dialog, DialogClose, DialogContent } from './dialog';

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  /** Extra content between the description and the buttons (a report, a list, a field). */
  children?: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  /** `danger` for what cannot be undone or loses data. */
  tone?: 'primary' | 'danger';
  /** The confirmed action is running: the confirm button spins, closing is held back. */
  pending?: boolean;
  confirmDisabled?: boolean;
  /** Where focus goes on close; by default back to what opened the dialog. */
  onCloseAutoFocus?: (event: Event) => void;
}

/**
 * Asks before acting. The dialog stays open while the action runs so its outcome can be shown
 * in place; the caller closes it (`onOpenChange(false)`) when done.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  confirmLabel,
  cancelLabel,
  onConfirm,
  tone = 'primary',
  pending = false,
  confirmDisabled = false,
  onCloseAutoFocus,
}: ConfirmDialogProps) {
  return (
    <Dialog open={open} onOpenChange={(next) => (pending ? undefined : onOpenChange(next))}>
      <DialogContent
        size="md"
        title={title}
        description={description}
        onCloseAutoFocus={onCloseAutoFocus}
        footer={
          <>
            <DialogClose asChild>
              <Button variant="secondary" disabled={pending}>
                {cancelLabel}
              </Button>
            </DialogClose>
            <Button
              variant={tone === 'danger' ? 'danger' : 'primary'}
              loading={pending}
              disabled={confirmDisabled}
              onClick={onConfirm}
            >
              {confirmLabel}
            </Button>
          </>
        }
      >
        {children}
      </DialogContent>
    </Dialog>
  );
}
