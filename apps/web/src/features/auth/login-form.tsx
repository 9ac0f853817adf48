import { type LoginInput, LoginInputSchema } from '@app/contracts';
import { Alert, Button, PasswordField, TextField } from '@app/ui';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useAuthMessages } from '../../i18n/auth-messages';
import { apiErrorCode, apiErrorMessage } from '../../lib/api-error';
import { useTRPC } from '../../lib/trpc';
import { asksForCode } from '../../lib/account-api';
import { TwoFactorStep } from './two-factor-step';
import { useSignedIn } from './use-signed-in';

/**
 * E-mail and password → `auth.login`; on success the session is primed and the user sent on.
 * An account with a second factor is asked for its code next (`TwoFactorStep`).
 */
export function LoginForm({ next }: { next: string | null }) {
  const m = useAuthMessages();
  const trpc = useTRPC();
  const signedIn = useSignedIn(next);
  const [codeStep, setCodeStep] = useState(false);
  const form = useForm<LoginInput>({
    resolver: zodResolver(LoginInputSchema),
    defaultValues: { email: '', password: '' },
  });
  const { errors } = form.formState;

  const login = useMutation(
    trpc.auth.login.mutationOptions({
      onSuccess: (answer) => {
        if (asksForCode(answer)) setCodeStep(true);
        else signedIn(answer);
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
  const startOver = () => {
    setCodeStep(false);
    login.reset();
    form.resetField('password');
  };

  if (codeStep) return <TwoFactorStep next={next} onStartOver={startOver} />;

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
