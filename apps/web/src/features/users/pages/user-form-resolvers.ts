import {
  type UserCreateInput,
  UserCreateInputSchema,
  type UserUpdateInput,
  UserUpdateInputSchema,
} from '@app/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import type { Resolver } from 'react-hook-form';
import type { UserFormValues } from './user-form-values';

// The contracts' own schemas validate the form, so client and server agree on every rule and
// message. The form holds plain strings, ids and a boolean; the schemas' input types are wider
// (a blank password is preprocessed away), hence the narrowing to the form's values.
const createSchemaResolver = zodResolver(UserCreateInputSchema) as unknown as Resolver<
  UserFormValues,
  unknown,
  UserCreateInput
>;

/**
 * An invitation instead of a password sends `invite: true` and no password at all (the contract
 * refuses both together); otherwise the password, and no `invite`.
 */
export const userCreateResolver: Resolver<UserFormValues, unknown, UserCreateInput> = (values, ...rest) => {
  const { invite, password, password_confirmation, ...others } = values;
  const sent = invite ? { ...others, invite: true } : { ...others, password, password_confirmation };
  return createSchemaResolver(sent as UserFormValues, ...rest);
};
export const userUpdateResolver = zodResolver(UserUpdateInputSchema) as unknown as Resolver<
  UserFormValues,
  unknown,
  UserUpdateInput
>;
