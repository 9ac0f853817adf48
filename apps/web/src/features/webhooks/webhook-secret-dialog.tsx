import { Button, Dialog, DialogClose, DialogContent } from '@app/ui';
import { useWebhooksMessages } from '../../i18n/webhooks-messages';
import { OneTimeSecret } from '../../lib/one-time-secret';

/**
 * An endpoint's signing secret, shown once after it is made (create) or remade (rotate). The
 * caller holds the secret only until `onClose`, which must drop it.
 */
export function WebhookSecretDialog({
  secret,
  title,
  onClose,
}: {
  secret: string | null;
  title: string;
  onClose: () => void;
}) {
  const m = useWebhooksMessages();
  const t = m.webhooks.secret;
  return (
    <Dialog open={secret !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        size="lg"
        title={title}
        description={t.description}
        // A stray click beside the dialog must not throw the only copy of the secret away.
        onInteractOutside={(event) => event.preventDefault()}
        footer={
          <DialogClose asChild>
            <Button>{t.done}</Button>
          </DialogClose>
        }
      >
        {secret ? <OneTimeSecret value={secret} strings={t} /> : null}
      </DialogContent>
    </Dialog>
  );
}
