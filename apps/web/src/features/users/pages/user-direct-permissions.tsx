import { PERMISSION_CATALOGUE, type PermissionOption } from '@app/contracts';
import { describedBy, FieldError } from '@app/ui';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { PermissionMatrix } from '../../../components/permission-matrix';
import { useUserPagesMessages } from '../../../i18n/user-pages-messages';
import type { UserFormValues } from './user-form-values';

export interface UserDirectPermissionsProps<TSubmitted> {
  form: UseFormReturn<UserFormValues, unknown, TSubmitted>;
  /** The server's decision per permission for the caller (GET /users/new or /users/{id}/edit). */
  options: readonly PermissionOption[];
}

/**
 * The user's direct grants as the permission matrix: the contracts name and describe each
 * permission, the server says which the caller may change (and why not), the form sends the
 * whole list. Laid out as the role editor's: the matrix needs the card's whole width, so the
 * heading sits above it, not in a column beside it.
 */
export function UserDirectPermissions<TSubmitted>({ form, options }: UserDirectPermissionsProps<TSubmitted>) {
  const f = useUserPagesMessages().userForm;
  const rows = options.map((option) => ({ ...PERMISSION_CATALOGUE[option.name], ...option }));
  const helpId = 'user-permissions-help';
  const errorId = 'user-permissions-error';
  return (
    <section aria-labelledby="user-permissions-title" className="pt-6 sm:pb-6">
      <div className="px-5 sm:px-6">
        <h2 id="user-permissions-title" className="text-sm font-semibold text-foreground">
          {f.directTitle}
        </h2>
        <p id={helpId} className="mt-1 max-w-2xl text-sm text-pretty text-muted-foreground">
          {f.directDescription}
        </p>
      </div>
      <Controller
        control={form.control}
        name="permissions"
        render={({ field, fieldState }) => (
          <div className="mt-4 flex flex-col gap-2 pb-4 sm:pb-0">
            <PermissionMatrix
              rows={rows}
              value={field.value}
              onChange={field.onChange}
              label={f.directTitle}
              aria-describedby={describedBy(helpId, fieldState.error ? errorId : undefined)}
              ref={field.ref}
              // On a phone the section's own dividers frame it; from `sm` it is a box of its own.
              className="border-t border-border sm:mx-6 sm:rounded-lg sm:border"
            />
            {fieldState.error ? (
              <div className="px-5 sm:px-6">
                <FieldError id={errorId} message={fieldState.error.message} />
              </div>
            ) : null}
          </div>
        )}
      />
    </section>
  );
}
