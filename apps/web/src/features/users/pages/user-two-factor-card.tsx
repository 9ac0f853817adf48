import type { UserShowItem } from '@app/contracts';
import { Button, Card, CardDescription, CardHeader, CardTitle, ConfirmDialog } from '@app/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useAccountMessages } from '../../../i18n/account-messages';
import { apiErrorMessage } from '../../../lib/api-error';
import { rest } from '../../../lib/rest';
import { toast } from '../../../lib/toast';
import { useTRPC } from '../../../lib/trpc';

/**
 * A user's second factor on their page (`item.two_factor`): on or off, and whether one of their
 * roles requires it; and "Reset two-factor" (`DELETE /users/{id}/two-factor`) after a
 * confirmation, offered only when the server says so (`actions.resetTwoFactor`: users.update,
 * the privilege ceiling, a second factor to reset); the server decides again when asked.
 */
export function UserTwoFactorCard({ user, className }: { user: UserShowItem; className?: string }) {
  const m = useAccountMessages();
  const t = m.userTwoFactor;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const { enrolled, required } = user.two_factor;
  const reset = useMutation({
    mutationFn: () => rest<unknown>('DELETE', `/users/${user.id}/two-factor`),
    onSuccess: () => {
      setAsking(false);
      toast.success(t.done(user.name));
      void queryClient.invalidateQueries(trpc.users.pathFilter());
    },
    onError: (error) => {
      setAsking(false);
      toast.error(apiErrorMessage(error, m));
    },
  });
  const canReset = user.actions.resetTwoFactor.allowed;

  return (
    <Card aria-labelledby="user-two-factor-title" className={className}>
      <CardHeader className="pb-5">
        <div>
          <CardTitle id="user-two-factor-title">{t.title}</CardTitle>
          <CardDescription>{enrolled ? t.on : t.off}</CardDescription>
          {required ? (
            <p className="mt-2 text-sm text-foreground">{enrolled ? t.required : t.requiredMissing}</p>
          ) : null}
        </div>
        {canReset ? (
          <Button variant="secondary" size="sm" onClick={() => setAsking(true)}>
            {t.reset}
          </Button>
        ) : null}
      </CardHeader>
      <ConfirmDialog
        open={asking}
        onOpenChange={setAsking}
        title={t.confirmTitle(user.name)}
        description={t.confirmDescription}
        confirmLabel={t.reset}
        cancelLabel={m.common.cancel}
        tone="danger"
        pending={reset.isPending}
        onConfirm={() => reset.mutate()}
      />
    </Card>
  );
}
