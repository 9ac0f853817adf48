import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useUserAccessMessages } from '../../../i18n/user-access-messages';
import { apiErrorMessage } from '../../../lib/api-error';
import { toast } from '../../../lib/toast';
import { useTRPC } from '../../../lib/trpc';
import type { UserRef } from './use-user-commands';

export type AccessAction = 'invite' | 'reset';

/** A link the server answered instead of mailing it (no SMTP_URL): shown once, then dropped. */
export interface AnsweredLink {
  action: AccessAction;
  url: string;
  expiresAt: string;
}

/**
 * Inviting a user and sending them a reset link. A mailed link is told in a toast; without mail
 * the answer carries the link (`url`), kept only until its dialog closes. A refusal (signed in
 * before, inactive, outranked) is the server's sentence in a toast.
 */
export function useUserAccess(user: UserRef) {
  const m = useUserAccessMessages();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [link, setLink] = useState<AnsweredLink | null>(null);
  const settled = {
    onError: (error: unknown) => toast.error(apiErrorMessage(error, m)),
    // The invitation's state on this page (and the list's filter) change with it.
    onSettled: () => queryClient.invalidateQueries(trpc.users.pathFilter()),
  };
  const answered = (action: AccessAction, sent: string, url: string | undefined, expiresAt: string) => {
    if (url) setLink({ action, url, expiresAt });
    else toast.success(sent);
  };

  const invite = useMutation(
    trpc.invitations.send.mutationOptions({
      ...settled,
      onSuccess: ({ url, invitation }) =>
        answered('invite', m.userAccess.invited(user.name), url, invitation.expires_at),
    }),
  );
  const reset = useMutation(
    trpc.passwordReset.send.mutationOptions({
      ...settled,
      onSuccess: ({ url, reset: sent }) => answered('reset', m.userAccess.resetSent(user.name), url, sent.expires_at),
    }),
  );

  return {
    run: (action: AccessAction, done: () => void) =>
      (action === 'invite' ? invite : reset).mutate({ id: user.id }, { onSettled: done }),
    pending: invite.isPending || reset.isPending,
    link,
    dropLink: () => setLink(null),
  };
}
