import { type PermissionRow, type RoleCreateInput, RoleCreateInputSchema, type RoleItem } from '@app/contracts';
import { describedBy, FieldError, FormError, SwitchField, TextField } from '@app/ui';
import { zodResolver } from '@hookform/resolvers/zod';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Controller, type Resolver, type UseFormReturn, useForm, useWatch } from 'react-hook-form';
import { FormFrame, FormSection } from '../../components/form-frame';
import { PermissionMatrix } from '../../components/permission-matrix';
import { useMessages } from '../../i18n/messages';
import { useRoleEditorMessages } from '../../i18n/role-editor-messages';
import { apiErrorMessage } from '../../lib/api-error';
import { applyServerFieldErrors } from '../../lib/form-errors';
import { RoleImpact } from './role-impact';

export interface RoleFormValues {
  name: string;
  description: string;
  permissions: string[];
  require_two_factor: boolean;
}

/** The fields a server refusal may name (`permissions.2` lands on `permissions`). */
export const ROLE_FORM_FIELDS = ['name', 'description', 'permissions', 'require_two_factor'] as const;

export const EMPTY_ROLE_FORM: RoleFormValues = {
  name: '',
  description: '',
  permissions: [],
  require_two_factor: false,
};

export const toRoleFormValues = (item: RoleItem): RoleFormValues => ({
  name: item.name,
  description: item.description ?? '',
  permissions: (item.permissions ?? []).map((permission) => permission.name),
  require_two_factor: item.require_two_factor,
});

// The contract's own schema checks the form, so its messages are the server's.
const resolver = zodResolver(RoleCreateInputSchema) as unknown as Resolver<RoleFormValues, unknown, RoleCreateInput>;

export type RoleFormApi = UseFormReturn<RoleFormValues, unknown, RoleCreateInput>;

export function useRoleForm(initial: RoleFormValues): RoleFormApi {
  return useForm<RoleFormValues, unknown, RoleCreateInput>({ resolver, defaultValues: initial });
}

export interface RoleFormProps {
  form: RoleFormApi;
  /** The catalogue as the server decided it for the caller (GET /permissions: grantable, reason). */
  catalogue: readonly PermissionRow[];
  /** The role being edited (its id for the preview, what it grants and requires now); none for a new role. */
  role?: { id: number; permissions: readonly string[]; requireTwoFactor: boolean };
  submitLabel: string;
  /**
   * Saves. A refusal it throws lands on its fields, or above the buttons when no field owns it;
   * `false` means not saved, the page said why (a conflict banner).
   */
  onSubmit: (input: RoleCreateInput) => Promise<unknown>;
  onCancel: () => void;
  /** A conflict banner, or any other notice the page keeps above the buttons. */
  notices?: ReactNode;
}

/** The role form of /roles/new and /roles/:id/edit: name, description, the matrix and the impact of saving. */
export function RoleForm({ form, catalogue, role, submitLabel, onSubmit, onCancel, notices }: RoleFormProps) {
  const m = useMessages();
  const r = useRoleEditorMessages();
  const t = r.form;
  const matrixHelpId = useId();
  const matrixErrorId = useId();
  const saved = useRef(false);
  const [formError, setFormError] = useState<string | null>(null);
  const banner = useRef<HTMLDivElement>(null);
  // Focus goes to a refusal no field owns (a field's own error takes focus itself).
  const focusBanner = useRef(false);
  useEffect(() => {
    if (formError && focusBanner.current) banner.current?.focus();
    focusBanner.current = false;
  }, [formError]);
  const { errors, isDirty, isSubmitting } = form.formState;
  const proposed = useWatch({ control: form.control, name: 'permissions' });
  const requireTwoFactor = useWatch({ control: form.control, name: 'require_two_factor' });

  const submit = form.handleSubmit(async (input) => {
    setFormError(null);
    try {
      saved.current = true;
      saved.current = (await onSubmit(input)) !== false;
    } catch (error) {
      saved.current = false;
      const { applied, unplaced } = applyServerFieldErrors(error, ROLE_FORM_FIELDS, form.setError);
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
        notices || formError ? (
          <>
            {notices}
            {formError ? (
              <div ref={banner} tabIndex={-1} className="rounded-lg outline-none">
                <FormError title={t.failedTitle} message={formError} />
              </div>
            ) : null}
          </>
        ) : undefined
      }
    >
      <div className="divide-y divide-border">
        <FormSection title={t.aboutTitle} description={t.aboutDescription}>
          <TextField
            label={t.name}
            autoComplete="off"
            spellCheck={false}
            placeholder={t.namePlaceholder}
            description={t.nameHint}
            error={errors.name?.message}
            {...form.register('name')}
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
            name="require_two_factor"
            render={({ field, fieldState }) => (
              <SwitchField
                label={t.requireTwoFactor}
                description={t.requireTwoFactorDescription}
                checked={field.value}
                onCheckedChange={field.onChange}
                onBlur={field.onBlur}
                ref={field.ref}
                error={fieldState.error?.message}
              />
            )}
          />
        </FormSection>
        {/* The matrix needs the card's whole width: a heading above it, not a column beside it. */}
        <section aria-labelledby="role-permissions-title" className="pt-6 sm:pb-6">
          <div className="px-5 sm:px-6">
            <h2 id="role-permissions-title" className="text-sm font-semibold text-foreground">
              {t.permissionsTitle}
            </h2>
            <p id={matrixHelpId} className="mt-1 max-w-2xl text-sm text-pretty text-muted-foreground">
              {t.permissionsDescription}
            </p>
          </div>
          <Controller
            control={form.control}
            name="permissions"
            render={({ field, fieldState }) => (
              <div className="mt-4 flex flex-col gap-2 pb-4 sm:pb-0">
                <PermissionMatrix
                  label={t.permissionsLabel}
                  rows={catalogue}
                  value={field.value}
                  onChange={field.onChange}
                  ref={field.ref}
                  aria-describedby={describedBy(matrixHelpId, fieldState.error ? matrixErrorId : undefined)}
                  // On a phone the section's own dividers frame it; from `sm` it is a box of its own.
                  className="border-t border-border sm:mx-6 sm:rounded-lg sm:border"
                />
                {fieldState.error ? (
                  <div className="px-5 sm:px-6">
                    <FieldError id={matrixErrorId} message={fieldState.error.message} />
                  </div>
                ) : null}
              </div>
            )}
          />
        </section>
        <RoleImpact
          {...(role ? { roleId: role.id } : {})}
          current={role?.permissions ?? []}
          proposed={proposed}
          // A new role has nobody to hold: the switch changes nothing the preview could count.
          {...(role && requireTwoFactor !== role.requireTwoFactor ? { requireTwoFactor } : {})}
        />
      </div>
    </FormFrame>
  );
}
