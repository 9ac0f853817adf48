import { writeTransaction } from '../../db/transaction.js';
import { auditOriginOf, recordChange } from '../../journal/journal.js';
import { openSecret, SecretUnavailable, sealSecret } from '../../webhooks/secret-box.js';
import { secretKeysOf } from '../../webhooks/settings.js';
import type { HandlerContext } from '../../context.js';

export interface ResealResult {
  keyId: string;
  resealed: number;
  alreadyCurrent: number;
  /** Endpoints whose secret no key given opens: left as they were. */
  unopened: number[];
}

/**
 * Every endpoint's signing secret sealed with the current SECRETS_KEY — those stored before a
 * key was set and those a previous key sealed — under the endpoints' row locks, recorded as one
 * `webhook.reseal` event naming the endpoints changed and the key (never a secret). Null when no
 * key is set.
 */
export async function resealSecrets(ctx: HandlerContext): Promise<ResealResult | null> {
  const { db } = ctx;
  const keys = secretKeysOf(ctx.config);
  if (!keys.current) return null;
  const current = `v1.${keys.current.id}.`;
  const keyId = keys.current.id;
  return writeTransaction(db, async (transaction) => {
    const result: ResealResult = { keyId, resealed: 0, alreadyCurrent: 0, unopened: [] };
    const changed: number[] = [];
    const rows = await db.models.Webhook.findAll({ attributes: ['id', 'secret'], transaction, lock: true });
    for (const row of rows) {
      if (row.secret.startsWith(current)) {
        result.alreadyCurrent += 1;
        continue;
      }
      let plain: string;
      try {
        plain = openSecret(row.secret, keys);
      } catch (err) {
        if (!(err instanceof SecretUnavailable)) throw err;
        result.unopened.push(row.id);
        continue;
      }
      await db.models.Webhook.update({ secret: sealSecret(plain, keys) }, { where: { id: row.id }, transaction });
      changed.push(row.id);
    }
    result.resealed = changed.length;
    await recordChange(db, transaction, {
      ...auditOriginOf(ctx),
      action: 'webhook.reseal',
      targetType: 'webhook',
      targetIds: changed,
      context: {
        key: keyId,
        resealed: changed.length,
        alreadyCurrent: result.alreadyCurrent,
        unopened: result.unopened,
      },
    });
    return result;
  });
}
