import { Button, Card, CardContent, CardHeader, CardTitle, FormError, TextField } from '@app/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useAccountMessages } from '../../i18n/account-messages';
import { apiErrorMessage } from '../../lib/api-error';
import { applyServerFieldErrors } from '../../lib/form-errors';
import { toast } from '../../lib/toast';
import { useTRPC } from '../../lib/trpc';
import { accountApi } from '../../lib/account-api';

/** One's own name (`PUT /account`): no `users.update` needed for oneself. */
export function AccountProfileForm({ name }: { name: string }) {
  const m = useAccountMessages();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useForm<{ name: string }>({ defaultValues: { name } });
  const rename = useMutation({
    mutationFn: (values: { name: string }) => accountApi.rename(values.name.trim()),
    onSuccess: async (_answer, values) => {
      form.reset({ name: values.name.trim() });
      toast.success(m.profile.saved);
      await queryClient.invalidateQueries({ queryKey: trpc.auth.me.queryKey() });
    },
    onError: (error) => applyServerFieldErrors(error, ['name'], form.setError),
  });
  const { errors, isDirty } = form.formState;
  const unplaced = rename.isError && !errors.name ? apiErrorMessage(rename.error, m) : null;

  return (
    <Card aria-labelledby="account-profile-title">
      <CardHeader className="pb-2">
        <CardTitle id="account-profile-title">{m.profile.title}</CardTitle>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          className="flex flex-col gap-4 sm:flex-row sm:items-start"
          onSubmit={form.handleSubmit((values) => rename.mutate(values))}
        >
          <TextField
            label={m.profile.name}
            autoComplete="name"
            fieldClassName="flex-1"
            error={errors.name?.message}
            {...form.register('name', { validate: (value) => value.trim() !== '' || m.profile.nameRequired })}
          />
          <Button type="submit" className="sm:mt-6" loading={rename.isPending} disabled={!isDirty}>
            {m.profile.save}
          </Button>
        </form>
        {unplaced ? <FormError className="mt-3" message={unplaced} /> : null}
      </CardContent>
    </Card>
  );
}
