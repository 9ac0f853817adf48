import type { SessionInfo } from '@app/contracts';
import { Button, Card, ConfirmDialog, EmptyState, PageHeader } from '@app/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { LogOut, MonitorSmartphone } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '../../lib/toast';
import { useSessionsMessages } from '../../i18n/sessions-messages';
import { apiErrorCode, apiErrorMessage } from '../../lib/api-error';
import { useTRPC } from '../../lib/trpc';
import { AccountNav } from '../auth/account-nav';
import { LOGIN_PATH } from '../../lib/auth-paths';
import { SessionList } from './session-list';

/**
 * `/account/sessions`: where the signed-in user is signed in. Ending another session takes
 * effect on its next request; ending this one is signing out, so it goes to the login page.
 */
export function MySessionsPage() {
  const m = useSessionsMessages();
  const t = m.sessions;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [confirmOthers, setConfirmOthers] = useState(false);
  const sessions = useQuery(trpc.auth.sessions.queryOptions());
  const refresh = () => queryClient.invalidateQueries(trpc.auth.sessions.pathFilter());

  const signedOut = () => {
    // Nothing of this session may be shown to whoever signs in next on this browser.
    queryClient.removeQueries();
    void navigate(LOGIN_PATH, { replace: true });
  };

  const revoke = useMutation(trpc.auth.revokeSession.mutationOptions());
  const end = (session: SessionInfo) =>
    revoke.mutate(
      { sessionId: session.id },
      {
        onSuccess: () => {
          if (session.current) return signedOut();
          toast.success(t.ended);
          void refresh();
        },
        onError: (error) => {
          // This device's session was already gone: the outcome asked for.
          if (session.current && apiErrorCode(error) === 'UNAUTHENTICATED') return signedOut();
          toast.error(apiErrorMessage(error, m));
          void refresh();
        },
      },
    );

  const others = useMutation(
    trpc.auth.revokeOtherSessions.mutationOptions({
      onSuccess: ({ revoked }) => toast.success(t.others.done(revoked)),
      onError: (error) => toast.error(apiErrorMessage(error, m)),
      onSettled: () => {
        setConfirmOthers(false);
        void refresh();
      },
    }),
  );
  const hasOthers = (sessions.data?.items ?? []).some((session) => !session.current);

  return (
    <>
      <title>{m.app.documentTitle(t.title)}</title>
      <PageHeader
        title={t.title}
        description={t.subtitle}
        actions={
          hasOthers ? (
            <Button variant="secondary" onClick={() => setConfirmOthers(true)}>
              <LogOut aria-hidden="true" />
              {t.others.button}
            </Button>
          ) : null
        }
      />
      <AccountNav className="mt-6" />
      <Card className="mt-6 max-w-4xl overflow-hidden">
        <SessionList
          query={sessions}
          empty={<EmptyState icon={<MonitorSmartphone aria-hidden="true" />} title={t.list.empty} />}
          end={{ label: t.list.signOut, device: t.list.signOutDevice, onEnd: end }}
          endingId={revoke.isPending ? (revoke.variables?.sessionId ?? null) : null}
        />
        {sessions.data && !hasOthers ? (
          <p className="border-t border-border px-5 py-3 text-xs text-muted-foreground">{t.others.none}</p>
        ) : null}
      </Card>
      <ConfirmDialog
        open={confirmOthers}
        onOpenChange={setConfirmOthers}
        title={t.others.title}
        description={t.others.description}
        confirmLabel={t.others.confirm}
        cancelLabel={t.others.cancel}
        tone="danger"
        pending={others.isPending}
        onConfirm={() => others.mutate()}
      />
    </>
  );
}
