import { type LoginInput, LoginInputSchema } from '@app/contracts';
import { Alert, Button, PasswordField, TextField } from '@app/ui';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { useAuthMessages } from '../../i18n/auth-messages';
import { apiErrorCode, apiErrorMessage } from '../../lib/api-error';
import { useTRPC } from '../../lib/trpc';
import { homePathFor } from '../../lib/auth-paths';

/** E-mail and password → `auth.login`; on success the session is primed and the user sent on. */
export function LoginForm({ next }: { next: string | null }) {
  const m = useAuthMessages();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const form = useForm<LoginInput>({
    resolver: zodResolver(LoginInputSchema),
    defaultValues: { email: '', password: '' },
  });
  const { errors } = form.formState;

  const login = useMutation(
    trpc.auth.login.mutationOptions({
      onSuccess: (session) => {
        // Answers cached for an earlier session (another account on this browser) must not show.
        queryClient.removeQueries();
        queryClient.setQueryData(trpc.auth.me.queryKey(), session);
        void navigate(next ?? homePathFor(session.can), { replace: true });
      },
      onError: (error) => {
        if (apiErrorCode(error) === 'UNAUTHENTICATED') {
          form.resetField('password');
          form.setFocus('password');
        }
      },
    }),
  );

  const submit = form.handleSubmit((values) => login.mutate(values));

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-5">
      {login.isError ? (
        <Alert tone="danger" title={m.auth.failedTitle}>
          {apiErrorMessage(login.error, m)}
        </Alert>
      ) : null}
      <TextField
        label={m.auth.email}
        type="email"
        autoComplete="username"
        inputMode="email"
        autoCapitalize="none"
        spellCheck={false}
        placeholder={m.auth.emailPlaceholder}
        // The page exists to be typed into: the cursor starts in the first field.
        autoFocus
        error={errors.email?.message}
        {...form.register('email')}
      />
      <PasswordField
        label={m.auth.password}
        autoComplete="current-password"
        showLabel={m.common.showPassword}
        hideLabel={m.common.hidePassword}
        error={errors.password?.message}
        {...form.register('password')}
      />
      <Button type="submit" size="lg" loading={login.isPending} className="mt-1 w-full">
        {login.isPending ? m.auth.submitting : m.auth.submit}
      </Button>
    </form>
  );
}
