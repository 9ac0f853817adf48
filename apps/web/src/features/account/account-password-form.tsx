import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, FormError, PasswordField } from '@app/ui';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useAccountMessages } from '../../i18n/account-messages';
import { apiErrorMessage } from '../../lib/api-error';
import { applyServerFieldErrors } from '../../lib/form-errors';
import { toast } from '../../lib/toast';
import { accountApi, type PasswordChange } from '../../lib/account-api';

const FIELDS = ['current_password', 'password', 'password_confirmation'] as const;
const EMPTY: PasswordChange = { current_password: '', password: '', password_confirmation: '' };

/**
 * One's own password (`PUT /account/password`), the current one required. The server decides
 * the policy and answers field errors; the form only checks that something was typed twice.
 */
export function AccountPasswordForm() {
  const m = useAccountMessages();
  const form = useForm<PasswordChange>({ defaultValues: EMPTY });
  const change = useMutation({
    mutationFn: accountApi.changePassword,
    onSuccess: () => {
      form.reset(EMPTY);
      toast.success(m.password.saved);
    },
    onError: (error) => applyServerFieldErrors(error, FIELDS, form.setError),
  });
  const { errors } = form.formState;
  const fieldError = FIELDS.some((field) => errors[field]?.type === 'server');
  const unplaced = change.isError && !fieldError ? apiErrorMessage(change.error, m) : null;
  const passwordProps = { showLabel: m.common.showPassword, hideLabel: m.common.hidePassword };

  return (
    <Card aria-labelledby="account-password-title">
      <CardHeader className="pb-2">
        <div>
          <CardTitle id="account-password-title">{m.password.title}</CardTitle>
          <CardDescription>{m.password.description}</CardDescription>
        </div>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          className="flex flex-col gap-4"
          onSubmit={form.handleSubmit((values) => change.mutate(values))}
        >
          <FormError message={unplaced} />
          <PasswordField
            label={m.password.current}
            autoComplete="current-password"
            error={errors.current_password?.message}
            {...passwordProps}
            {...form.register('current_password', { required: m.password.required })}
          />
          <PasswordField
            label={m.password.next}
            autoComplete="new-password"
            error={errors.password?.message}
            {...passwordProps}
            {...form.register('password', { required: m.password.newRequired })}
          />
          <PasswordField
            label={m.password.confirm}
            autoComplete="new-password"
            error={errors.password_confirmation?.message}
            {...passwordProps}
            {...form.register('password_confirmation', {
              validate: (value, values) => value === values.password || m.password.mismatch,
            })}
          />
          <Button type="submit" className="self-start" loading={change.isPending}>
            {m.password.save}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
