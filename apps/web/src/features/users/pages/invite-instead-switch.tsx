import { SwitchField } from '@app/ui';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { useUserAccessMessages } from '../../../i18n/user-access-messages';
import type { UserFormValues } from './user-form-values';

/** The new-user form's choice: invite the person to choose a password rather than set one now. */
export function InviteInsteadSwitch<TSubmitted>({
  form,
}: {
  form: UseFormReturn<UserFormValues, unknown, TSubmitted>;
}) {
  const m = useUserAccessMessages();
  return (
    <Controller
      control={form.control}
      name="invite"
      render={({ field }) => (
        <SwitchField
          label={m.userAccess.inviteInstead}
          description={m.userAccess.inviteInsteadDescription}
          checked={field.value ?? false}
          onCheckedChange={(checked) => {
            field.onChange(checked);
            // Nothing typed before stays to be sent, or to fail a check the person no longer sees.
            if (checked) {
              form.resetField('password');
              form.resetField('password_confirmation');
            }
          }}
          onBlur={field.onBlur}
          ref={field.ref}
        />
      )}
    />
  );
}
