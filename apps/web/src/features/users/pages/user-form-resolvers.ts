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
export const userCreateResolver = zodResolver(UserCreateInputSchema) as unknown as Resolver<
  UserFormValues,
  unknown,
  UserCreateInput
>;
export const userUpdateResolver = zodResolver(UserUpdateInputSchema) as unknown as Resolver<
  UserFormValues,
  unknown,
  UserUpdateInput
>;
