import type { InvitationStatus, UserShowItem } from '@app/contracts';
import {
  Badge,
  type BadgeTone,
  Button,
  Card,
  CardDescription,
  CardHeader,
  CardTitle,
  ConfirmDialog,
  cn,
  DescriptionList,
} from '@app/ui';
import { KeyRound, MailPlus } from 'lucide-react';
import { useState } from 'react';
import { useUserAccessMessages } from '../../../i18n/user-access-messages';
import { AccessLinkDialog } from './access-link-dialog';
import { type AccessAction, useUserAccess } from './use-user-access';

const STATE_TONES: Record<InvitationStatus['state'], BadgeTone> = {
  pending: 'warning',
  accepted: 'success',
  expired: 'neutral',
};

/**
 * How the user signs in: their latest invitation's state and when they last signed in, and the
 * actions the server says the viewer may take now (`actions.invite`, `actions.sendPasswordReset`:
 * users.update, then the very rules those writes run — live, active, under the ceiling, and for
 * an invitation never signed in). The page decides nothing itself; the server decides again when
 * asked.
 */
export function UserAccessCard({ user, className }: { user: UserShowItem; className?: string }) {
  const m = useUserAccessMessages();
  const t = m.userAccess;
  const access = useUserAccess(user);
  const [asked, setAsked] = useState<AccessAction | null>(null);
  const { invitation } = user;
  const mayInvite = user.actions.invite.allowed;
  const mayReset = user.actions.sendPasswordReset.allowed;

  const confirm =
    asked === 'invite'
      ? { title: (invitation ? t.resendTitle : t.inviteTitle)(user.name), text: t.inviteText(user.email) }
      : { title: t.resetTitle(user.name), text: t.resetText(user.email) };

  return (
    <Card aria-labelledby="user-access-title" className={cn('overflow-hidden', className)}>
      <CardHeader className="pb-3">
        <div>
          <CardTitle id="user-access-title">{t.title}</CardTitle>
          <CardDescription>{t.description}</CardDescription>
        </div>
      </CardHeader>
      <DescriptionList
        className="border-t border-border"
        items={[
          {
            term: t.invitation,
            description: invitation ? (
              <Badge tone={STATE_TONES[invitation.state]} dot>
                {t.states[invitation.state]}
              </Badge>
            ) : (
              <span className="text-muted-foreground">{t.neverInvited}</span>
            ),
          },
          {
            term: t.lastSignIn,
            description: user.last_sign_in_at ? (
              <DateTime iso={user.last_sign_in_at} />
            ) : (
              <span className="text-muted-foreground">{t.neverSignedIn}</span>
            ),
          },
          ...(invitation
            ? [
                { term: t.sent, description: <DateTime iso={invitation.sent_at} /> },
                ...(invitation.state === 'accepted'
                  ? []
                  : [
                      {
                        term: invitation.state === 'expired' ? t.expired : t.expires,
                        description: <DateTime iso={invitation.expires_at} />,
                      },
                    ]),
              ]
            : []),
        ]}
      />
      {mayInvite || mayReset ? (
        <div className="flex flex-wrap gap-2 border-t border-border px-5 py-4">
          {mayInvite ? (
            <Button variant="secondary" onClick={() => setAsked('invite')}>
              <MailPlus aria-hidden="true" />
              {invitation ? t.resend : t.invite}
            </Button>
          ) : null}
          {mayReset ? (
            <Button variant="secondary" onClick={() => setAsked('reset')}>
              <KeyRound aria-hidden="true" />
              {t.sendReset}
            </Button>
          ) : null}
        </div>
      ) : null}
      <ConfirmDialog
        open={asked !== null}
        onOpenChange={(open) => (open ? undefined : setAsked(null))}
        title={confirm.title}
        description={confirm.text}
        confirmLabel={asked === 'invite' ? (invitation ? t.resend : t.invite) : t.sendReset}
        cancelLabel={m.common.cancel}
        pending={access.pending}
        onConfirm={() => (asked ? access.run(asked, () => setAsked(null)) : undefined)}
      />
      <AccessLinkDialog userName={user.name} link={access.link} onClose={access.dropLink} />
    </Card>
  );
}

function DateTime({ iso }: { iso: string }) {
  const m = useUserAccessMessages();
  return (
    <time dateTime={iso} title={iso}>
      {m.common.dateTime(iso)}
    </time>
  );
}
