import type { ApiToken } from '@app/contracts';
import { ConfirmDialog } from '@app/ui';
import { useState } from 'react';
import { toast } from '../../lib/toast';
import { useTokensMessages } from '../../i18n/tokens-messages';
import { apiErrorMessage } from '../../lib/api-error';

/**
 * "Revoke this token?": `ask(token)` opens the question; on confirm `revoke` runs, the outcome is
 * told in a toast (the server's sentence when it refuses) and the dialog closes.
 */
export function useRevokeTokenDialog(revoke: (token: ApiToken) => Promise<unknown>) {
  const m = useTokensMessages();
  const t = m.tokens.revoke;
  const [token, setToken] = useState<ApiToken | null>(null);
  const [pending, setPending] = useState(false);

  const confirm = async () => {
    if (!token) return;
    setPending(true);
    try {
      await revoke(token);
      toast.success(t.done(token.name));
    } catch (error) {
      toast.error(apiErrorMessage(error, m));
    } finally {
      setPending(false);
      setToken(null);
    }
  };

  const dialog = (
    <ConfirmDialog
      open={token !== null}
      onOpenChange={(open) => (open ? undefined : setToken(null))}
      title={token ? t.title(token.name) : ''}
      description={t.description}
      confirmLabel={t.confirm}
      cancelLabel={t.cancel}
      tone="danger"
      pending={pending}
      onConfirm={() => void confirm()}
    />
  );
  return { ask: setToken, dialog };
}
