import type { IdInput } from '@app/contracts';
import { writeTransaction } from '../../db/transaction.js';
import { auditOriginOf, diff, recordChange } from '../../journal/journal.js';
import type { ManageCall } from './providers.call.js';
import { auditedFields, findProvider } from './providers.repository.js';

/** DELETE /auth/providers/{id}: its button goes; sign-ins it started and not finished end with it. */
export async function deleteProvider({ ctx, input }: ManageCall<IdInput>): Promise<void> {
  const { db } = ctx;
  await writeTransaction(db, async (tx) => {
    const row = await findProvider(db, input.id, tx);
    const before = auditedFields(row);
    await db.sequelize.query('DELETE FROM sso_attempts WHERE provider_id = :id', {
      replacements: { id: row.id },
      transaction: tx,
    });
    await row.destroy({ transaction: tx });
    await recordChange(db, tx, {
      ...auditOriginOf(ctx),
      action: 'authProvider.delete',
      targetType: 'auth_provider',
      targetIds: [row.id],
      changes: diff(before, null),
    });
  });
}
