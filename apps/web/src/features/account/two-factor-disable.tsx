import { Button, FormError } from '@app/ui';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useAccountMessages } from '../../i18n/account-messages';
import { apiErrorMessage } from '../../lib/api-error';
import { toast } from '../../lib/toast';
import { accountApi } from '../../lib/account-api';
import { CodeField, digitsOf } from '../../components/code-field';

/** Turning the second factor off takes a current code: a stolen session alone cannot. */
export function TwoFactorDisable({ onDisabled }: { onDisabled: () => void }) {
  const m = useAccountMessages();
  const form = useForm<{ code: string }>({ defaultValues: { code: '' } });
  const disable = useMutation({
    mutationFn: (code: string) => accountApi.disable(code),
    onSuccess: () => {
      toast.success(m.twoFactor.disabled);
      onDisabled();
    },
    onError: () => {
      form.resetField('code');
      form.setFocus('code');
    },
  });

  return (
    <form
      noValidate
      aria-labelledby="two-factor-disable-title"
      className="flex flex-col gap-3"
      onSubmit={form.handleSubmit((values) => disable.mutate(digitsOf(values.code)))}
    >
      <h2 id="two-factor-disable-title" className="text-base font-semibold text-foreground">
        {m.twoFactor.disableTitle}
      </h2>
      <p className="text-sm text-muted-foreground">{m.twoFactor.disableDescription}</p>
      <FormError message={disable.isError ? apiErrorMessage(disable.error, m) : null} />
      <CodeField
        label={m.twoFactor.code}
        error={form.formState.errors.code?.message}
        {...form.register('code', { validate: (value) => /^\d{6}$/.test(digitsOf(value)) || m.twoFactor.codeRequired })}
      />
      <Button type="submit" variant="danger" className="self-start" loading={disable.isPending}>
        {m.twoFactor.disable}
      </Button>
    </form>
  );
}
