import type { ApiTokenCreated, Permission, TokenCreateInput } from '@app/contracts';
import { Button, Dialog, DialogClose, DialogContent } from '@app/ui';
import { useState } from 'react';
import { useTokensMessages } from '../../i18n/tokens-messages';
import { OneTimeSecret } from '../../lib/one-time-secret';
import { TokenFormContent } from './token-form-content';

export interface CreateTokenDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /**
   * The scopes the server offers for this owner and this caller (`tokens.options` / `tokens.optionsFor`):
   * the only ones a token may be narrowed to, listed as they come. Undefined while they load.
   */
  available: readonly Permission[] | undefined;
  /** Whose token it is, when not the viewer's own (titles and help name them). */
  ownerName?: string;
  /** Creates the token; the dialog shows the secret it answers with, this once. */
  onCreate: (input: TokenCreateInput) => Promise<ApiTokenCreated>;
}

/** "New API token": the form, then the secret with a copy button. Closing forgets both. */
export function CreateTokenDialog({ open, onOpenChange, ...rest }: CreateTokenDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {/* Mounted only while open: closing drops the form and, above all, the secret. */}
      {open ? <CreateTokenContent {...rest} /> : null}
    </Dialog>
  );
}

function CreateTokenContent({ available, ownerName, onCreate }: Omit<CreateTokenDialogProps, 'open' | 'onOpenChange'>) {
  const m = useTokensMessages();
  const [created, setCreated] = useState<ApiTokenCreated | null>(null);
  if (created) {
    const t = m.tokens.secret;
    return (
      <DialogContent
        size="lg"
        title={t.title}
        description={t.description(created.item.name)}
        // A stray click beside the dialog must not throw the only copy of the secret away.
        onInteractOutside={(event) => event.preventDefault()}
        footer={
          <DialogClose asChild>
            <Button>{t.done}</Button>
          </DialogClose>
        }
      >
        <OneTimeSecret value={created.token} strings={t} />
      </DialogContent>
    );
  }
  return <TokenFormContent available={available} ownerName={ownerName} onCreate={onCreate} onCreated={setCreated} />;
}
