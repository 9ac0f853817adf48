import type { LinkPasswordInput } from '@app/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useLinksMessages } from '../../i18n/links-messages';
import { apiErrorCode, isApiError } from '../../lib/api-error';
import { homePathFor, LOGIN_PATH } from '../../lib/auth-paths';
import { toast } from '../../lib/toast';
import { useTRPC } from '../../lib/trpc';

/** What a mail's link is for: accepting an invitation, or resetting a forgotten password. */
export type LinkPurpose = 'invitation' | 'reset';

/**
 * Sends the chosen password with the link's token. An accepted invitation signs the person in
 * (the answer is the session, as a sign-in's) and goes home; a reset signs nobody in — a second
 * factor, when the account has one, is asked at sign-in — and goes to the sign-in page.
 * `spent`: the server refused the token (INVALID_TOKEN); `failure`: any other refusal the form's
 * fields do not show.
 */
export function useLinkPassword(purpose: LinkPurpose, { onFieldErrors }: { onFieldErrors: (error: unknown) => void }) {
  const m = useLinksMessages();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const accept = useMutation(
    trpc.invitations.accept.mutationOptions({
      onSuccess: (session) => {
        // Answers cached for an earlier session on this browser must not show.
        queryClient.removeQueries();
        queryClient.setQueryData(trpc.auth.me.queryKey(), session);
        toast.success(m.linkPassword.welcome(session.user.name));
        void navigate(homePathFor(session.can), { replace: true });
      },
    }),
  );
  const reset = useMutation(
    trpc.passwordReset.reset.mutationOptions({
      onSuccess: () => {
        toast.success(m.linkPassword.resetDone);
        void navigate(LOGIN_PATH, { replace: true });
      },
    }),
  );
  const mutation = purpose === 'invitation' ? accept : reset;
  const error = mutation.error;
  const fieldErrors = isApiError(error) ? error.data?.errors : undefined;
  // A token the contract refuses (malformed) is as spent as one the server no longer knows.
  const spent = apiErrorCode(error) === 'INVALID_TOKEN' || Boolean(fieldErrors?.token);

  return {
    mutate: (values: LinkPasswordInput) => mutation.mutate(values, { onError: onFieldErrors }),
    pending: mutation.isPending,
    spent,
    failure: error && !spent && !fieldErrors ? error : null,
  };
}
