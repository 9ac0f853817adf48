import { type LinkPasswordInput, LinkPasswordInputSchema } from '@app/contracts';
import { Alert, Button, PasswordField } from '@app/ui';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useParams } from 'react-router';
import { useLinksMessages } from '../../i18n/links-messages';
import { apiErrorMessage } from '../../lib/api-error';
import { applyServerFieldErrors } from '../../lib/form-errors';
import { PublicPageFrame } from './public-page-frame';
import { SpentLinkPage } from './spent-link-page';
import { type LinkPurpose, useLinkPassword } from './use-link-password';

const FIELDS = ['password', 'password_confirmation'] as const;

/**
 * `/invite/:token` and `/reset-password/:token`: the page a mail's link opens, to choose a
 * password. Whether the link still works is known only when it is used (the server keeps no
 * readable token to ask about), so a spent link shows its page after the first submit.
 */
export function LinkPasswordPage({ purpose }: { purpose: LinkPurpose }) {
  const m = useLinksMessages();
  const token = useParams().token ?? '';
  const form = useForm<LinkPasswordInput>({
    resolver: zodResolver(LinkPasswordInputSchema),
    defaultValues: { token, password: '', password_confirmation: '' },
  });
  const { errors } = form.formState;
  const submitLink = useLinkPassword(purpose, {
    onFieldErrors: (error) => void applyServerFieldErrors(error, FIELDS, form.setError),
  });

  // A token the contract refuses outright (too long) is as spent as one the server refuses.
  if (submitLink.spent || errors.token) return <SpentLinkPage purpose={purpose} />;

  const t = m.linkPassword;
  const invite = purpose === 'invitation';
  return (
    <PublicPageFrame
      title={invite ? t.inviteTitle : t.resetTitle}
      subtitle={invite ? t.inviteSubtitle : t.resetSubtitle}
    >
      <form
        onSubmit={form.handleSubmit((values) => submitLink.mutate(values))}
        noValidate
        className="flex flex-col gap-5"
      >
        {submitLink.failure ? (
          <Alert tone="danger" title={t.failedTitle}>
            {apiErrorMessage(submitLink.failure, m)}
          </Alert>
        ) : null}
        <PasswordField
          label={t.password}
          description={t.passwordHint}
          autoComplete="new-password"
          autoFocus
          showLabel={m.common.showPassword}
          hideLabel={m.common.hidePassword}
          error={errors.password?.message}
          {...form.register('password')}
        />
        <PasswordField
          label={t.confirmation}
          autoComplete="new-password"
          showLabel={m.common.showPassword}
          hideLabel={m.common.hidePassword}
          error={errors.password_confirmation?.message}
          {...form.register('password_confirmation')}
        />
        <Button type="submit" size="lg" loading={submitLink.pending} className="w-full">
          {submitLink.pending ? t.submitting : invite ? t.inviteSubmit : t.resetSubmit}
        </Button>
      </form>
    </PublicPageFrame>
  );
}

/** `/invite/:token`, for the router. */
export const InvitePage = () => <LinkPasswordPage purpose="invitation" />;

/** `/reset-password/:token`, for the router. */
export const ResetPasswordPage = () => <LinkPasswordPage purpose="reset" />;
