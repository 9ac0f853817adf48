import type { ApiTokenCreated, Permission, TokenCreateInput } from '@app/contracts';
import {
  Button,
  CheckboxGroup,
  Dialog,
  DialogClose,
  DialogContent,
  FieldShell,
  FormError,
  NativeSelect,
  SwitchField,
  TextField,
} from '@app/ui';
import { useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTokensMessages } from '../../i18n/tokens-messages';
import { apiErrorMessage } from '../../lib/api-error';
import { applyServerFieldErrors } from '../../lib/form-errors';
import { OneTimeSecret } from '../../lib/one-time-secret';
import { EMPTY_TOKEN_FORM, EXPIRY_CHOICES, expiresAtOf, type TokenFormValues, tokenFormResolver } from './token-form';
import { permissionDescription } from '../../lib/permission-description';

export interface CreateTokenDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /**
   * The scopes the server offers for this owner and this caller (`tokens.options` / `tokens.optionsFor`):
   * the only ones a token may be narrowed to, listed as they come. Undefined while they load.
   */
  available: readonly Permission[] | undefined;
  /** Whose token it is, when not the viewer's own (titles and help name them). */
  ownerName?: string;
  /** Creates the token; the dialog shows the secret it answers with, this once. */
  onCreate: (input: TokenCreateInput) => Promise<ApiTokenCreated>;
}

/** "New API token": the form, then the secret with a copy button. Closing forgets both. */
export function CreateTokenDialog({ open, onOpenChange, ...rest }: CreateTokenDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {/* Mounted only while open: closing drops the form and, above all, the secret. */}
      {open ? <CreateTokenContent {...rest} /> : null}
    </Dialog>
  );
}

function CreateTokenContent({ available, ownerName, onCreate }: Omit<CreateTokenDialogProps, 'open' | 'onOpenChange'>) {
  const m = useTokensMessages();
  const [created, setCreated] = useState<ApiTokenCreated | null>(null);
  if (created) {
    const t = m.tokens.secret;
    return (
      <DialogContent
        size="lg"
        title={t.title}
        description={t.description(created.item.name)}
        // A stray click beside the dialog must not throw the only copy of the secret away.
        onInteractOutside={(event) => event.preventDefault()}
        footer={
          <DialogClose asChild>
            <Button>{t.done}</Button>
          </DialogClose>
        }
      >
        <OneTimeSecret value={created.token} strings={t} />
      </DialogContent>
    );
  }
  return <TokenForm available={available} ownerName={ownerName} onCreate={onCreate} onCreated={setCreated} />;
}

function TokenForm({
  available,
  ownerName,
  onCreate,
  onCreated,
}: Omit<CreateTokenDialogProps, 'open' | 'onOpenChange'> & { onCreated: (created: ApiTokenCreated) => void }) {
  const m = useTokensMessages();
  const t = m.tokens.form;
  const formId = useId();
  const expiryId = useId();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<TokenFormValues, unknown, TokenCreateInput>({
    resolver: tokenFormResolver(m),
    defaultValues: EMPTY_TOKEN_FORM,
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
      title={ownerName ? t.titleFor(ownerName) : t.title}
      description={t.description}
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
