import type { SessionInfo } from '@app/contracts';
import { Alert, Button, Card, CardDescription, CardHeader, CardTitle, ConfirmDialog, cn } from '@app/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from '../../lib/toast';
import { useSessionsMessages } from '../../i18n/sessions-messages';
import { apiErrorCode, apiErrorMessage } from '../../lib/api-error';
import { useTRPC } from '../../lib/trpc';
import { SessionList, useDeviceName } from './session-list';

type Pending = { kind: 'one'; session: SessionInfo; device: string } | { kind: 'all' } | null;

/**
 * A user's sessions on their page (users.update): end one or all, after a question. When the
 * server answers OUTRANKED (the user holds permissions the viewer lacks) its reason replaces
 * the buttons.
 */
export function UserSessionsSection({
  user,
  explained = null,
  className,
}: {
  user: { id: number; name: string };
  /** The reason the page already gives for the same refusal: not repeated here word for word. */
  explained?: string | null;
  className?: string;
}) {
  const m = useSessionsMessages();
  const t = m.sessions.user;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const deviceName = useDeviceName();
  const [asking, setAsking] = useState<Pending>(null);
  const [outranked, setOutranked] = useState<string | null>(null);
  const sessions = useQuery({ ...trpc.sessions.listFor.queryOptions({ id: user.id }), retry: false });
  const refusal =
    outranked ?? (apiErrorCode(sessions.error) === 'OUTRANKED' ? apiErrorMessage(sessions.error, m) : null);

  const settle = {
    onError: (error: unknown) => {
      if (apiErrorCode(error) === 'OUTRANKED') setOutranked(apiErrorMessage(error, m));
      else toast.error(apiErrorMessage(error, m));
    },
    onSettled: () => {
      setAsking(null);
      void queryClient.invalidateQueries(trpc.sessions.listFor.pathFilter());
    },
  };
  const endOne = useMutation(
    trpc.sessions.revokeFor.mutationOptions({ ...settle, onSuccess: () => toast.success(m.sessions.ended) }),
  );
  const endAll = useMutation(
    trpc.sessions.revokeAllFor.mutationOptions({
      ...settle,
      onSuccess: ({ revoked }) => toast.success(t.endedAll(revoked)),
    }),
  );
  const count = sessions.data?.items.length ?? 0;
  const canEnd = refusal === null;

  return (
    <Card aria-labelledby="user-sessions-title" className={cn('overflow-hidden', className)}>
      <CardHeader className="flex-col pb-3 sm:flex-row">
        <div className="min-w-0">
          <CardTitle id="user-sessions-title">{t.title}</CardTitle>
          <CardDescription>{t.description}</CardDescription>
        </div>
        {canEnd && count > 0 ? (
          <Button variant="secondary" size="sm" className="shrink-0" onClick={() => setAsking({ kind: 'all' })}>
            {t.endAll}
          </Button>
        ) : null}
      </CardHeader>
      {refusal ? (
        <div className="border-t border-border px-5 py-4">
          <Alert title={t.outrankedTitle} role="status">
            {refusal === explained ? null : refusal}
          </Alert>
        </div>
      ) : null}
      {refusal && sessions.isError ? null : (
        <div className="border-t border-border">
          <SessionList
            query={sessions}
            empty={<p className="px-5 py-6 text-center text-sm text-muted-foreground">{t.empty}</p>}
            end={
              canEnd
                ? {
                    label: t.end,
                    device: t.endDevice,
                    onEnd: (session) =>
                      setAsking({ kind: 'one', session, device: deviceName(session.user_agent).name }),
                  }
                : undefined
            }
          />
        </div>
      )}
      <ConfirmDialog
        open={asking !== null}
        onOpenChange={(open) => (open ? undefined : setAsking(null))}
        title={asking?.kind === 'one' ? t.endTitle(asking.device) : t.endAllTitle(user.name)}
        description={asking?.kind === 'one' ? t.endDescription : t.endAllDescription}
        confirmLabel={asking?.kind === 'one' ? t.end : t.endAllConfirm}
        cancelLabel={t.cancel}
        tone="danger"
        pending={endOne.isPending || endAll.isPending}
        onConfirm={() =>
          asking?.kind === 'one'
            ? endOne.mutate({ id: user.id, sessionId: asking.session.id })
            : endAll.mutate({ id: user.id })
        }
      />
    </Card>
  );
}
