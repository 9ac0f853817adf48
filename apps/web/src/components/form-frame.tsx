import { Button, Card, ConfirmDialog } from '@app/ui';
import type { FormEventHandler, ReactNode } from 'react';
import { useBlocker } from 'react-router';
import { useUserPagesMessages } from '../i18n/user-pages-messages';
import { LOGIN_PATH } from '../lib/auth-paths';

export interface FormFrameProps {
  onSubmit: FormEventHandler<HTMLFormElement>;
  submitLabel: string;
  pending: boolean;
  onCancel: () => void;
  /** Asked when the user navigates away: true while there are unsaved edits worth a question. */
  shouldBlockLeaving: () => boolean;
  /** Banners above the buttons: a refused submission, a conflict to resolve. */
  notices?: ReactNode;
  children: ReactNode;
}

/**
 * The card around a record form: the sections, then a footer with what went wrong (next to the
 * button just pressed) and the buttons. Leaving with unsaved edits asks before they are lost.
 */
export function FormFrame({
  onSubmit,
  submitLabel,
  pending,
  onCancel,
  shouldBlockLeaving,
  notices,
  children,
}: FormFrameProps) {
  const m = useUserPagesMessages();
  // A lost session (→ /login) is not the user's choice to leave: the question would not help.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      currentLocation.pathname !== nextLocation.pathname &&
      nextLocation.pathname !== LOGIN_PATH &&
      shouldBlockLeaving(),
  );

  return (
    <form noValidate onSubmit={onSubmit}>
      <Card>
        {children}
        <div className="rounded-b-xl border-t border-border bg-surface-muted/40 px-5 py-4 sm:px-6">
          {notices ? <div className="mb-4 flex flex-col gap-3">{notices}</div> : null}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={onCancel} disabled={pending}>
              {m.userForm.cancel}
            </Button>
            <Button type="submit" loading={pending}>
              {submitLabel}
            </Button>
          </div>
        </div>
      </Card>
      <ConfirmDialog
        open={blocker.state === 'blocked'}
        onOpenChange={(open) => (open ? undefined : blocker.reset?.())}
        title={m.userForm.leaveTitle}
        description={m.userForm.leaveDescription}
        confirmLabel={m.userForm.leaveConfirm}
        cancelLabel={m.userForm.leaveCancel}
        tone="danger"
        onConfirm={() => blocker.proceed?.()}
      />
    </form>
  );
}

/** One of a form's sections in the frame: what it is about on the left, its fields on the right. */
export function FormSection({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <section className="grid gap-x-8 gap-y-5 px-5 py-7 sm:px-6 md:grid-cols-3">
      <div>
        <h2 className="text-sm font-semibold text-foreground">{title}</h2>
        <p className="mt-1 text-sm text-pretty text-muted-foreground">{description}</p>
      </div>
      <div className="flex min-w-0 flex-col gap-5 md:col-span-2">{children}</div>
    </section>
  );
}
