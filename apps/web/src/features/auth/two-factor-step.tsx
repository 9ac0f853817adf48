import { Alert, Button, TextField } from '@app/ui';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useSignInMessages } from '../../i18n/sign-in-messages';
import { apiErrorCode, apiErrorMessage } from '../../lib/api-error';
import { answerTwoFactor } from '../../lib/account-api';
import { CodeField, digitsOf } from '../../components/code-field';
import { useSignedIn } from './use-signed-in';

/**
 * The sign-in's second step, after a right password for an account with a second factor: a code
 * from the app, or one recovery code. The server remembers the first step for this browser for
 * a few minutes; when it has forgotten, only starting over helps.
 */
export function TwoFactorStep({ next, onStartOver }: { next: string | null; onStartOver: () => void }) {
  const m = useSignInMessages();
  const signedIn = useSignedIn(next);
  const [recovery, setRecovery] = useState(false);
  const form = useForm<{ code: string }>({ defaultValues: { code: '' } });
  const verify = useMutation({
    mutationFn: (value: string) =>
      answerTwoFactor(recovery ? { recovery_code: value.trim() } : { code: digitsOf(value) }),
    onSuccess: signedIn,
    onError: () => {
      form.resetField('code');
      form.setFocus('code');
    },
  });
  const expired = apiErrorCode(verify.error) === 'TWO_FACTOR_CHALLENGE_EXPIRED';
  const switchMethod = () => {
    setRecovery(!recovery);
    verify.reset();
    form.reset({ code: '' });
  };

  return (
    <form
      noValidate
      className="flex flex-col gap-5"
      onSubmit={form.handleSubmit((values) => verify.mutate(values.code))}
    >
      <div>
        <h2 className="text-base font-semibold text-foreground">{m.codeStep.title}</h2>
        <p className="mt-1 text-sm text-muted-foreground">
          {recovery ? m.codeStep.recoveryDescription : m.codeStep.description}
        </p>
      </div>
      {verify.isError ? (
        <Alert tone="danger" title={m.codeStep.failedTitle}>
          {apiErrorMessage(verify.error, m)}
        </Alert>
      ) : null}
      {recovery ? (
        <TextField
          key="recovery"
          label={m.codeStep.recoveryCode}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          autoFocus
          className="font-mono"
          error={form.formState.errors.code?.message}
          {...form.register('code', { validate: (value) => value.trim() !== '' || m.codeStep.recoveryRequired })}
        />
      ) : (
        <CodeField
          key="code"
          label={m.codeStep.code}
          autoFocus
          error={form.formState.errors.code?.message}
          {...form.register('code', {
            validate: (value) => /^\d{6}$/.test(digitsOf(value)) || m.codeStep.codeRequired,
          })}
        />
      )}
      {expired ? (
        <Button size="lg" className="w-full" onClick={onStartOver}>
          {m.codeStep.startOver}
        </Button>
      ) : (
        <Button type="submit" size="lg" loading={verify.isPending} className="w-full">
          {verify.isPending ? m.codeStep.submitting : m.codeStep.submit}
        </Button>
      )}
      <div className="flex flex-col items-center gap-2 text-sm">
        <Button variant="ghost" size="sm" onClick={switchMethod}>
          {recovery ? m.codeStep.useApp : m.codeStep.useRecovery}
        </Button>
        {expired ? null : (
          <Button variant="ghost" size="sm" onClick={onStartOver}>
            {m.codeStep.startOver}
          </Button>
        )}
      </div>
    </form>
  );
}
