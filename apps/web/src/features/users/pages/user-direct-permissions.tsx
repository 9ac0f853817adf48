import { PERMISSION_CATALOGUE, type PermissionOption } from '@app/contracts';
import { cn, FieldError } from '@app/ui';
import type { ReactNode } from 'react';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { PermissionMatrix } from '../../../components/permission-matrix';
import { FormSection } from '../../../components/form-frame';
import { useMessages } from '../../../i18n/messages';
import type { UserFormValues } from './user-form-values';

export interface UserDirectPermissionsProps<TSubmitted> {
  form: UseFormReturn<UserFormValues, unknown, TSubmitted>;
  /** The server's decision per permission for the caller (GET /users/{id}/edit). */
  options: readonly PermissionOption[];
  /** The user's own choice a reload replaced, shown under the matrix. */
  hint?: ReactNode;
}

/**
 * The user's direct grants as the permission matrix: the contracts name and describe each
 * permission, the server says which the caller may change (and why not), the form sends the
 * whole list.
 */
export function UserDirectPermissions<TSubmitted>({ form, options, hint }: UserDirectPermissionsProps<TSubmitted>) {
  const f = useMessages().userForm;
  const rows = options.map((option) => ({ ...PERMISSION_CATALOGUE[option.name], ...option }));
  const errorId = 'user-permissions-error';
  return (
    <FormSection title={f.directTitle} description={f.directDescription}>
      <Controller
        control={form.control}
        name="permissions"
        render={({ field, fieldState }) => (
          <div>
            <PermissionMatrix
              rows={rows}
              value={field.value}
              onChange={field.onChange}
              label={f.directTitle}
              aria-describedby={fieldState.error ? errorId : undefined}
              ref={field.ref}
              className={cn('overflow-hidden rounded-lg border', fieldState.error ? 'border-danger' : 'border-border')}
            />
            <FieldError id={errorId} message={fieldState.error?.message} />
          </div>
        )}
      />
      {hint}
    </FormSection>
  );
}
