import { Button, Card, CheckboxGroup, FormError, SwitchField, TextField } from '@app/ui';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useProvidersMessages } from '../../i18n/providers-messages';
import { apiErrorMessage } from '../../lib/api-error';
import { applyServerFieldErrors } from '../../lib/form-errors';
import { useTRPC } from '../../lib/trpc';
import { useCan } from '../auth/use-session';
import type { Provider, ProviderInput } from './providers-api';

interface Values {
  name: string;
  issuer: string;
  client_id: string;
  client_secret: string;
  allowed_domains: string;
  create_users: boolean;
  default_roles: string[];
}
const FIELDS = [
  'name',
  'issuer',
  'client_id',
  'client_secret',
  'allowed_domains',
  'create_users',
  'default_roles',
] as const;

const valuesOf = (provider: Provider | undefined): Values => ({
  name: provider?.name ?? '',
  issuer: provider?.issuer ?? '',
  client_id: provider?.client_id ?? '',
  client_secret: '',
  allowed_domains: provider?.allowed_domains.join('\n') ?? '',
  create_users: provider?.create_users ?? false,
  default_roles: provider?.default_roles ?? [],
});
const listOf = (text: string) => text.split(/[\s,;]+/).filter(Boolean);

/**
 * A provider's settings. The secret is write-only: an edit keeps the stored one unless "Replace
 * secret" is chosen. The server checks everything (the issuer's discovery too) and answers
 * field errors, shown next to their fields.
 */
export function ProviderForm({
  provider,
  onSave,
  onCancel,
}: {
  provider?: Provider;
  onSave: (input: ProviderInput) => Promise<unknown>;
  onCancel: () => void;
}) {
  const m = useProvidersMessages();
  const t = m.providerForm;
  const trpc = useTRPC();
  const can = useCan();
  const roles = useQuery({ ...trpc.roles.list.queryOptions({ perPage: 100 }), enabled: can['roles.view'] === true });
  const [replacing, setReplacing] = useState(!provider?.client_secret_set);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<Values>({ defaultValues: valuesOf(provider) });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    const input: ProviderInput = {
      name: values.name.trim(),
      issuer: values.issuer.trim(),
      client_id: values.client_id.trim(),
      allowed_domains: listOf(values.allowed_domains),
      create_users: values.create_users,
      default_roles: values.default_roles,
      ...(replacing ? { client_secret: values.client_secret } : {}),
    };
    try {
      await onSave(input);
    } catch (error) {
      const { applied, unplaced } = applyServerFieldErrors(error, FIELDS, form.setError);
      if (!applied || unplaced.length > 0) setFailure(unplaced.join(' ') || apiErrorMessage(error, m));
    }
  });

  return (
    <Card className="max-w-2xl p-5 sm:p-6">
      <form noValidate onSubmit={submit} className="flex flex-col gap-5">
        <TextField
          label={t.name}
          description={t.nameDescription}
          error={errors.name?.message}
          {...form.register('name')}
        />
        <TextField
          label={t.issuer}
          description={t.issuerDescription}
          type="url"
          inputMode="url"
          spellCheck={false}
          placeholder="https://id.example.com/realms/staff"
          error={errors.issuer?.message}
          {...form.register('issuer')}
        />
        <TextField
          label={t.clientId}
          spellCheck={false}
          error={errors.client_id?.message}
          {...form.register('client_id')}
        />
        {replacing ? (
          <TextField
            label={t.clientSecret}
            description={t.clientSecretNew}
            type="password"
            autoComplete="off"
            error={errors.client_secret?.message}
            {...form.register('client_secret')}
          />
        ) : (
          <div className="flex flex-col gap-1.5">
            <p className="text-sm font-medium text-foreground">{t.clientSecret}</p>
            <p className="text-sm text-muted-foreground">{t.clientSecretSet}</p>
            <Button variant="secondary" size="sm" className="self-start" onClick={() => setReplacing(true)}>
              {t.replaceSecret}
            </Button>
          </div>
        )}
        {replacing && provider?.client_secret_set ? (
          <Button variant="ghost" size="sm" className="-mt-3 self-start" onClick={() => setReplacing(false)}>
            {t.keepSecret}
          </Button>
        ) : null}
        <div className="flex flex-col gap-1.5">
          <label htmlFor="provider-domains" className="text-sm font-medium text-foreground">
            {t.domains}
          </label>
          <p id="provider-domains-description" className="text-xs text-muted-foreground">
            {t.domainsDescription}
          </p>
          <textarea
            id="provider-domains"
            rows={3}
            spellCheck={false}
            aria-describedby="provider-domains-description"
            aria-invalid={errors.allowed_domains ? true : undefined}
            className="min-h-20 rounded-md border border-input bg-surface px-3 py-2 font-mono text-sm text-foreground focus-visible:outline-2 focus-visible:outline-ring"
            {...form.register('allowed_domains')}
          />
          {errors.allowed_domains ? (
            <p className="text-xs font-medium text-danger">{errors.allowed_domains.message}</p>
          ) : null}
        </div>
        <Controller
          control={form.control}
          name="create_users"
          render={({ field, fieldState }) => (
            <SwitchField
              label={t.createUsers}
              description={t.createUsersDescription}
              checked={field.value}
              onCheckedChange={field.onChange}
              onBlur={field.onBlur}
              ref={field.ref}
              error={fieldState.error?.message}
            />
          )}
        />
        {form.watch('create_users') ? (
          <Controller
            control={form.control}
            name="default_roles"
            render={({ field, fieldState }) =>
              roles.data ? (
                <CheckboxGroup
                  legend={t.defaultRoles}
                  options={roles.data.rows.map((role) => ({ value: role.name, label: role.name }))}
                  value={field.value}
                  onChange={field.onChange}
                  error={fieldState.error?.message}
                />
              ) : (
                <TextField
                  label={t.defaultRolesText}
                  value={field.value.join(', ')}
                  onChange={(event) => field.onChange(listOf(event.target.value.replace(/\s+/g, ' ')))}
                  error={fieldState.error?.message}
                />
              )
            }
          />
        ) : null}
        {provider?.redirect_uri ? (
          <div className="flex flex-col gap-1">
            <p className="text-sm font-medium text-foreground">{t.redirectUri}</p>
            <code className="text-xs break-all text-muted-foreground">{provider.redirect_uri}</code>
          </div>
        ) : null}
        <FormError message={failure} />
        <div className="flex gap-2">
          <Button type="submit" loading={isSubmitting}>
            {m.providers.save}
          </Button>
          <Button variant="secondary" onClick={onCancel}>
            {m.providers.cancel}
          </Button>
        </div>
      </form>
    </Card>
  );
}
