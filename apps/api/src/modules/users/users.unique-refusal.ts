import type { UniqueConstraintError } from 'sequelize';
import { EMAIL_TAKEN } from '../../domain/users.edit-plan.js';
import { AppError } from '../../errors.js';

export const USER_NAME_TAKEN = 'This user name is already used by another account.';
export const EXTERNAL_ID_TAKEN = 'This external id is already used by another account.';

/**
 * Which of a user's unique keys a write collided with, as the 422 the doors answer: the e-mail,
 * SCIM's userName or the external id. The unique indexes decide races; this names the loser's
 * field. `users_user_name_key` holds the e-mail of an account without a userName of its own, so
 * a collision there is the e-mail's unless the write stored a userName (`storedUserName`).
 */
export function uniqueRefusal(err: UniqueConstraintError, storedUserName = false): AppError {
  const said = `${JSON.stringify(err.fields ?? {})} ${err.original?.message ?? ''}`;
  const [field, message] = said.includes('external_id')
    ? ['external_id', EXTERNAL_ID_TAKEN]
    : storedUserName && said.includes('user_name')
      ? ['user_name', USER_NAME_TAKEN]
      : ['email', EMAIL_TAKEN];
  return new AppError('VALIDATION_FAILED', message, { errors: { [field]: [message] } });
}
