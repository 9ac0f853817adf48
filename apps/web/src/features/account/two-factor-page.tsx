import { Alert, Badge, Card, CardContent, PageHeader } from '@app/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useAccountMessages } from '../../i18n/account-messages';
import { toast } from '../../lib/toast';
import { useTRPC } from '../../lib/trpc';
import { AccountNav } from '../auth/account-nav';
import { useSession } from '../auth/use-session';
import { heldAtEnrolment, twoFactorOf } from '../../lib/account-api';
import { TwoFactorDisable } from './two-factor-disable';
import { TwoFactorEnrol } from './two-factor-enrol';

/**
 * `/account/two-factor`: the second factor's state, enrolment and turning it off. A person whose
 * role requires one and who has none is held here (`EnrolmentGate`), told why.
 */
export function TwoFactorPage() {
  const m = useAccountMessages();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { session } = useSession();
  // Stays true from confirmation until the recovery codes are put away, though `auth.me` says enrolled.
  const [finishing, setFinishing] = useState(false);
  if (!session) return null;
  const state = twoFactorOf(session);
  const held = heldAtEnrolment(session);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.auth.me.queryKey() });
  const enrolling = !state.enrolled || finishing;

  return (
    <>
      <title>{m.app.documentTitle(m.twoFactor.title)}</title>
      <PageHeader title={m.twoFactor.title} description={m.twoFactor.subtitle} />
      <AccountNav className="mt-6" />
      <div className="mt-6 grid max-w-3xl gap-6">
        {held ? (
          <Alert tone="warning" title={m.twoFactor.heldTitle}>
            {m.twoFactor.heldDescription}
          </Alert>
        ) : null}
        <Card>
          <CardContent className="flex flex-col gap-6">
            <div className="flex flex-col gap-1">
              <div className="flex flex-wrap items-center gap-2">
                <h2 className="text-base font-semibold text-foreground">
                  {state.enrolled ? m.twoFactor.onTitle : m.twoFactor.offTitle}
                </h2>
                {state.required ? <Badge tone="neutral">{m.twoFactor.requiredBadge}</Badge> : null}
              </div>
              <p className="text-sm text-muted-foreground">
                {state.enrolled ? m.twoFactor.onDescription : m.twoFactor.offDescription}
              </p>
            </div>
            {enrolling ? (
              <TwoFactorEnrol
                onEnabled={() => {
                  setFinishing(true);
                  refresh();
                }}
                onDone={() => {
                  setFinishing(false);
                  toast.success(m.twoFactor.enabled);
                }}
              />
            ) : state.required ? (
              <p className="text-sm text-muted-foreground">{m.twoFactor.requiredNote}</p>
            ) : (
              <TwoFactorDisable onDisabled={refresh} />
            )}
          </CardContent>
        </Card>
      </div>
    </>
  );
}
