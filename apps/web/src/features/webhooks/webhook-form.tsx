import {
  type Webhook,
  WEBHOOK_EVENTS,
  type WebhookEventType,
  type WebhookInput,
  WebhookInputSchema,
} from '@app/contracts';
import { CheckboxGroup, FormError, SwitchField, TextField } from '@app/ui';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { Controller, type Resolver, useForm } from 'react-hook-form';
import { useWebhooksMessages } from '../../i18n/webhooks-messages';
import { apiErrorMessage } from '../../lib/api-error';
import { applyServerFieldErrors } from '../../lib/form-errors';
import { FormSection, FormFrame } from '../../components/form-frame';

export interface WebhookFormValues {
  url: string;
  description: string;
  events: WebhookEventType[];
  active: boolean;
  include_personal: boolean;
}

const FIELDS = ['url', 'description', 'events', 'active', 'include_personal'] as const;

export const EMPTY_WEBHOOK_FORM: WebhookFormValues = {
  url: '',
  description: '',
  events: [],
  active: true,
  include_personal: false,
};

export const toWebhookFormValues = (item: Webhook): WebhookFormValues => ({
  url: item.url,
  description: item.description,
  events: WEBHOOK_EVENTS.filter((event) => item.events.includes(event)),
  active: item.active,
  include_personal: item.include_personal,
});

// The contract's own schema validates the form, so the messages are the server's.
const resolver = zodResolver(WebhookInputSchema) as unknown as Resolver<WebhookFormValues, unknown, WebhookInput>;

export interface WebhookFormProps {
  initial: WebhookFormValues;
  submitLabel: string;
  /** Saves; a refusal with field errors (`url`, `events.1`) lands next to its field. */
  onSubmit: (input: WebhookInput) => Promise<unknown>;
  onCancel: () => void;
}

/** The endpoint form of /webhooks/new and /webhooks/:id/edit: URL, description, events, active. */
export function WebhookForm({ initial, submitLabel, onSubmit, onCancel }: WebhookFormProps) {
  const m = useWebhooksMessages();
  const t = m.webhooks.form;
  const saved = useRef(false);
  const [formError, setFormError] = useState<string | null>(null);
  // A refusal no field owns is shown by the buttons; focus goes to it (a field's own error gets the
  // focus instead when there is one), which also scrolls it clear of the sticky header.
  const banner = useRef<HTMLDivElement>(null);
  const focusBanner = useRef(false);
  useEffect(() => {
    if (formError && focusBanner.current) banner.current?.focus();
    focusBanner.current = false;
  }, [formError]);
  const form = useForm<WebhookFormValues, unknown, WebhookInput>({ resolver, defaultValues: initial });
  const { errors, isDirty, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (input) => {
    setFormError(null);
    try {
      saved.current = true;
      await onSubmit(input);
    } catch (error) {
      saved.current = false;
      const { applied, unplaced } = applyServerFieldErrors(error, FIELDS, form.setError);
      focusBanner.current = !applied;
      if (!applied || unplaced.length > 0) setFormError(unplaced.join(' ') || apiErrorMessage(error, m));
    }
  });

  return (
    <FormFrame
      onSubmit={(event) => void submit(event)}
      submitLabel={submitLabel}
      pending={isSubmitting}
      onCancel={onCancel}
      shouldBlockLeaving={() => !saved.current && isDirty}
      notices={
        formError ? (
          <div ref={banner} tabIndex={-1} className="rounded-lg outline-none">
            <FormError title={t.failedTitle} message={formError} />
          </div>
        ) : undefined
      }
    >
      <div className="divide-y divide-border">
        <FormSection title={t.endpointTitle} description={t.endpointDescription}>
          <TextField
            label={t.url}
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder={t.urlPlaceholder}
            error={errors.url?.message}
            {...form.register('url')}
          />
          <TextField
            label={t.description}
            labelAside={m.common.optional}
            autoComplete="off"
            placeholder={t.descriptionPlaceholder}
            error={errors.description?.message}
            {...form.register('description')}
          />
          <Controller
            control={form.control}
            name="active"
            render={({ field, fieldState }) => (
              <SwitchField
                label={t.active}
                description={t.activeDescription}
                checked={field.value}
                onCheckedChange={field.onChange}
                onBlur={field.onBlur}
                ref={field.ref}
                error={fieldState.error?.message}
              />
            )}
          />
          <Controller
            control={form.control}
            name="include_personal"
            render={({ field, fieldState }) => (
              <SwitchField
                label={t.includePersonal}
                description={t.includePersonalDescription}
                checked={field.value}
                onCheckedChange={field.onChange}
                onBlur={field.onBlur}
                ref={field.ref}
                error={fieldState.error?.message}
              />
            )}
          />
        </FormSection>
        <FormSection title={t.eventsTitle} description={t.eventsDescription}>
          <Controller
            control={form.control}
            name="events"
            render={({ field, fieldState }) => (
              <CheckboxGroup
                legend={t.events}
                description={t.eventsHint}
                bulkToggle={{ selectAll: t.eventsAll, clear: t.eventsNone }}
                options={WEBHOOK_EVENTS.map((event) => ({
                  value: event,
                  label: (
                    <>
                      {m.webhooks.events[event].label}{' '}
                      <span className="font-mono text-xs font-normal text-muted-foreground">{event}</span>
                    </>
                  ),
                  description: m.webhooks.events[event].description,
                }))}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                ref={field.ref}
                error={fieldState.error?.message}
              />
            )}
          />
        </FormSection>
      </div>
    </FormFrame>
  );
}
