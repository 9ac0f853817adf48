import { Button, Dialog, DialogClose, DialogContent } from '@app/ui';
import { useUserAccessMessages } from '../../../i18n/user-access-messages';
import { OneTimeSecret } from '../../../lib/one-time-secret';
import type { AnsweredLink } from './use-user-access';

/**
 * The invitation or reset link the server answered because it could not mail it (no SMTP_URL),
 * for the administrator to pass on. It is shown this once: the caller drops it on close.
 */
export function AccessLinkDialog({
  userName,
  link,
  onClose,
}: {
  userName: string;
  link: AnsweredLink | null;
  onClose: () => void;
}) {
  const m = useUserAccessMessages();
  const t = m.userAccess.link;
  return (
    <Dialog open={link !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        size="lg"
        title={link?.action === 'reset' ? t.resetTitle(userName) : t.inviteTitle(userName)}
        description={t.description}
        // A stray click beside the dialog must not throw the only copy of the link away.
        onInteractOutside={(event) => event.preventDefault()}
        footer={
          <DialogClose asChild>
            <Button>{t.done}</Button>
          </DialogClose>
        }
      >
        {link ? (
          <>
            <OneTimeSecret value={link.url} strings={t} />
            <p className="mt-3 text-sm text-muted-foreground">{t.expires(m.common.dateTime(link.expiresAt))}</p>
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
