import type { ApiTokenCreated, Permission, TokenCreateInput } from '@app/contracts';
import {
  Button,
  CheckboxGroup,
  DialogClose,
  DialogContent,
  FieldShell,
  FormError,
  NativeSelect,
  SwitchField,
  TextField,
} from '@app/ui';
import { type ReactNode, useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTokensMessages } from '../../i18n/tokens-messages';
import { apiErrorMessage } from '../../lib/api-error';
import { applyServerFieldErrors } from '../../lib/form-errors';
import { permissionDescription } from '../../lib/permission-description';
import { EMPTY_TOKEN_FORM, EXPIRY_CHOICES, expiresAtOf, type TokenFormValues, tokenFormResolver } from './token-form';

export interface TokenFormContentProps {
  /** The scopes the server offers (`tokens.options`); undefined while they load. */
  available: readonly Permission[] | undefined;
  ownerName?: string | undefined;
  onCreate: (input: TokenCreateInput) => Promise<ApiTokenCreated>;
  onCreated: (created: ApiTokenCreated) => void;
  /** Where the form starts (a blank token unless said: the provisioning dialog pre-fills its scopes). */
  defaults?: TokenFormValues;
  /** The dialog's title and description, when the form serves a purpose of its own. */
  heading?: { title: string; description: string };
  /** Said above the permissions (what the provisioning dialog would have given and cannot). */
  notice?: ReactNode;
}

/** The token form as a dialog's content: name, expiry, optional scopes; the server's refusals placed on the fields. */
export function TokenFormContent({
  available,
  ownerName,
  onCreate,
  onCreated,
  defaults = EMPTY_TOKEN_FORM,
  heading,
  notice,
}: TokenFormContentProps) {
  const m = useTokensMessages();
  const t = m.tokens.form;
  const formId = useId();
  const expiryId = useId();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<TokenFormValues, unknown, TokenCreateInput>({
    resolver: tokenFormResolver(m),
    defaultValues: defaults,
  });
  const { errors, isSubmitting } = form.formState;
  const expiry = form.watch('expiry');
  const customDate = form.watch('customDate');
  const narrow = form.watch('narrow');
  const until = expiresAtOf({ expiry, customDate });
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

  const submit = form.handleSubmit(async (input) => {
    setFormError(null);
    try {
      onCreated(await onCreate(input));
    } catch (error) {
      const { applied, unplaced } = applyServerFieldErrors(error, ['name', 'scopes'], form.setError);
      if (!applied || unplaced.length > 0) setFormError(unplaced.join(' ') || apiErrorMessage(error, m));
    }
  });

  return (
    <DialogContent
      size="lg"
      title={heading?.title ?? (ownerName ? t.titleFor(ownerName) : t.title)}
      description={heading?.description ?? t.description}
      footer={
        <>
          <DialogClose asChild>
            <Button variant="secondary" disabled={isSubmitting}>
              {t.cancel}
            </Button>
          </DialogClose>
          <Button type="submit" form={formId} loading={isSubmitting}>
            {t.submit}
          </Button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={(event) => void submit(event)} className="flex flex-col gap-5 pb-1">
        <TextField
          label={t.name}
          autoComplete="off"
          placeholder={t.namePlaceholder}
          error={errors.name?.message}
          {...form.register('name')}
        />
        <FieldShell
          controlId={expiryId}
          label={t.expiry}
          description={until ? t.expiryOn(until) : expiry === 'never' ? t.expiryNever : undefined}
          descriptionId={`${expiryId}-description`}
        >
          <NativeSelect
            id={expiryId}
            aria-describedby={until || expiry === 'never' ? `${expiryId}-description` : undefined}
            {...form.register('expiry')}
          >
            {EXPIRY_CHOICES.map((choice) => (
              <option key={choice} value={choice}>
                {t.expiryChoices[choice]}
              </option>
            ))}
          </NativeSelect>
        </FieldShell>
        {expiry === 'custom' ? (
          <TextField
            label={t.customDate}
            type="date"
            min={tomorrow}
            error={errors.customDate?.message}
            {...form.register('customDate')}
          />
        ) : null}
        <Controller
          control={form.control}
          name="narrow"
          render={({ field }) => (
            <SwitchField
              label={t.narrow}
              description={ownerName ? t.narrowDescriptionFor(ownerName) : t.narrowDescription}
              checked={field.value}
              onCheckedChange={field.onChange}
              onBlur={field.onBlur}
              ref={field.ref}
            />
          )}
        />
        {notice}
        {narrow && available === undefined ? (
          <p role="status" className="text-sm text-muted-foreground">
            {m.common.loading}
          </p>
        ) : narrow ? (
          <Controller
            control={form.control}
            name="scopes"
            render={({ field, fieldState }) => (
              <CheckboxGroup
                legend={t.scopes}
                description={t.scopesHint}
                emptyMessage={t.noScopes}
                options={(available ?? []).map((permission) => ({
                  value: permission,
                  label: m.permissions.names[permission]?.label ?? permission,
                  description: permissionDescription(permission),
                }))}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                ref={field.ref}
                error={fieldState.error?.message}
              />
            )}
          />
        ) : null}
        {formError || errors.root?.message ? (
          <FormError title={t.failedTitle} message={formError ?? errors.root?.message} />
        ) : null}
      </form>
    </DialogContent>
  );
}
