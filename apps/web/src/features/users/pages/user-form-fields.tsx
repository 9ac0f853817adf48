import { CheckboxGroup, PasswordField, Skeleton, SwitchField, TextField } from '@app/ui';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { useUserPagesMessages } from '../../../i18n/user-pages-messages';
import { FormSection } from '../../../components/form-frame';
import type { AttributeField, PermissionOption } from '@app/contracts';
import { AttributeValueFields } from '../../attributes/attribute-value-fields';
import { InviteInsteadSwitch } from './invite-instead-switch';
import { UserDirectPermissions } from './user-direct-permissions';
import type { UserFormValues } from './user-form-values';

export interface RoleOption {
  id: number;
  name: string;
  /** False when the actor lacks a permission the role carries: it can be neither granted nor removed. */
  assignable: boolean;
}

export interface UserFormFieldsProps<TSubmitted> {
  form: UseFormReturn<UserFormValues, unknown, TSubmitted>;
  mode: 'create' | 'edit';
  /** Undefined while loading; the roles section is left out when null (the options are not available). */
  roleOptions: readonly RoleOption[] | null | undefined;
  showActive: boolean;
  /**
   * The direct grants the caller may change (GET /users/new or /users/{id}/edit); the section is
   * left out without them.
   */
  permissionOptions?: readonly PermissionOption[] | undefined;
  /** The custom attributes the caller may fill in, as the server offers them. */
  attributeFields?: readonly AttributeField[];
}

/** The user form's sections (profile, password, access); the page supplies the form and the buttons. */
export function UserFormFields<TSubmitted>({
  form,
  mode,
  roleOptions,
  showActive,
  permissionOptions,
  attributeFields = [],
}: UserFormFieldsProps<TSubmitted>) {
  const m = useUserPagesMessages();
  const f = m.userForm;
  const { errors } = form.formState;
  const inviting = mode === 'create' && form.watch('invite') === true;

  return (
    <div className="divide-y divide-border">
      <FormSection title={f.profileTitle} description={f.profileDescription}>
        <TextField
          label={f.name}
          autoComplete="off"
          placeholder={f.namePlaceholder}
          error={errors.name?.message}
          {...form.register('name')}
        />
        <TextField
          label={f.email}
          type="email"
          autoComplete="off"
          inputMode="email"
          spellCheck={false}
          placeholder={f.emailPlaceholder}
          error={errors.email?.message}
          {...form.register('email')}
        />
      </FormSection>

      <AttributeValueFields form={form} fields={attributeFields} />

      <FormSection
        title={f.passwordTitle}
        description={mode === 'create' ? f.passwordDescriptionNew : f.passwordDescriptionEdit}
      >
        {mode === 'create' ? <InviteInsteadSwitch form={form} /> : null}
        {inviting ? null : (
          <>
            <PasswordField
              label={mode === 'create' ? f.password : f.newPassword}
              labelAside={mode === 'edit' ? m.common.optional : undefined}
              autoComplete="new-password"
              showLabel={m.common.showPassword}
              hideLabel={m.common.hidePassword}
              error={errors.password?.message}
              {...form.register('password')}
            />
            <PasswordField
              label={f.passwordConfirmation}
              labelAside={mode === 'edit' ? m.common.optional : undefined}
              autoComplete="new-password"
              showLabel={m.common.showPassword}
              hideLabel={m.common.hidePassword}
              error={errors.password_confirmation?.message}
              {...form.register('password_confirmation')}
            />
          </>
        )}
      </FormSection>

      {showActive || roleOptions !== null ? (
        <FormSection title={f.accessTitle} description={f.accessDescription}>
          {showActive ? (
            <>
              <Controller
                control={form.control}
                name="is_active"
                render={({ field, fieldState }) => (
                  <SwitchField
                    label={f.active}
                    description={f.activeDescription}
                    checked={field.value}
                    onCheckedChange={field.onChange}
                    onBlur={field.onBlur}
                    ref={field.ref}
                    error={fieldState.error?.message}
                  />
                )}
              />
            </>
          ) : null}
          {roleOptions === undefined ? (
            <div role="status" aria-label={m.common.loading} className="space-y-2">
              <Skeleton className="h-4 w-16" />
              <Skeleton className="h-32 w-full rounded-lg" />
            </div>
          ) : roleOptions !== null ? (
            <>
              <Controller
                control={form.control}
                name="roles_ids"
                render={({ field, fieldState }) => (
                  <CheckboxGroup
                    legend={f.roles}
                    description={f.rolesHint}
                    emptyMessage={f.noRoles}
                    options={roleOptions.map((role) => ({
                      value: role.id,
                      label: role.name,
                      disabled: !role.assignable,
                      description: role.assignable ? undefined : f.roleLocked,
                    }))}
                    value={field.value}
                    onChange={field.onChange}
                    onBlur={field.onBlur}
                    ref={field.ref}
                    error={fieldState.error?.message}
                  />
                )}
              />
            </>
          ) : null}
        </FormSection>
      ) : null}
      {permissionOptions ? <UserDirectPermissions form={form} options={permissionOptions} /> : null}
    </div>
  );
}
