import { type ForgotPasswordInput, ForgotPasswordInputSchema } from '@app/contracts';
import { Alert, Button, TextField } from '@app/ui';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { TextLink } from '../../components/text-link';
import { useLinksMessages } from '../../i18n/links-messages';
import { apiErrorCode, apiErrorMessage } from '../../lib/api-error';
import { LOGIN_PATH } from '../../lib/auth-paths';
import { useTRPC } from '../../lib/trpc';
import { PublicPageFrame } from './public-page-frame';

/**
 * `/forgot-password`: an e-mail address → a reset link by mail. The answer is the same whether an
 * account has the address or not (the server's rule), so the page says the same neutral sentence
 * for every address; only a refusal to take the request at all (429, a bad address) shows as such.
 */
export function ForgotPasswordPage() {
  const m = useLinksMessages();
  const trpc = useTRPC();
  const form = useForm<ForgotPasswordInput>({
    resolver: zodResolver(ForgotPasswordInputSchema),
    defaultValues: { email: '' },
  });
  const forgot = useMutation(trpc.passwordReset.forgot.mutationOptions());
  const submit = form.handleSubmit((values) => forgot.mutate(values));
  const backToSignIn = <TextLink to={LOGIN_PATH}>{m.forgot.backToSignIn}</TextLink>;

  if (forgot.isSuccess) {
    return (
      <PublicPageFrame title={m.forgot.sentTitle} footer={backToSignIn}>
        <div className="flex flex-col gap-5">
          <Alert tone="success" role="status">
            {m.forgot.sent(forgot.variables.email)}
          </Alert>
          <Button
            variant="secondary"
            onClick={() => {
              forgot.reset();
              form.reset({ email: '' });
            }}
          >
            {m.forgot.again}
          </Button>
        </div>
      </PublicPageFrame>
    );
  }

  const limited = apiErrorCode(forgot.error) === 'RATE_LIMITED';
  return (
    <PublicPageFrame title={m.forgot.title} subtitle={m.forgot.subtitle} footer={backToSignIn}>
      <form onSubmit={submit} noValidate className="flex flex-col gap-5">
        {forgot.isError ? (
          <Alert
            tone={limited ? 'warning' : 'danger'}
            title={limited ? m.forgot.rateLimitedTitle : m.forgot.failedTitle}
          >
            {apiErrorMessage(forgot.error, m)}
          </Alert>
        ) : null}
        <TextField
          label={m.forgot.email}
          type="email"
          autoComplete="username"
          inputMode="email"
          autoCapitalize="none"
          spellCheck={false}
          autoFocus
          error={form.formState.errors.email?.message}
          {...form.register('email')}
        />
        <Button type="submit" size="lg" loading={forgot.isPending} className="w-full">
          {forgot.isPending ? m.forgot.submitting : m.forgot.submit}
        </Button>
      </form>
    </PublicPageFrame>
  );
}
