import { QueryTypes } from 'sequelize';
import type { HandlerContext } from '../../context.js';
import { writeTransaction } from '../../db/transaction.js';
import { auditOriginOf, recordChange } from '../../journal/journal.js';
import { openSecret, SecretUnavailable, sealSecret } from '../../webhooks/secret-box.js';
import { secretKeysOf } from '../../webhooks/settings.js';

/**
 * Every column beside the webhooks' signing secrets (modules/webhooks/reseal.ts) that holds a
 * value sealed with SECRETS_KEY: the single sign-on providers' client secrets, the users' TOTP
 * secrets and the variables of mail still waiting to go out. Left behind by a key change, they
 * stop opening once the previous key is dropped: nobody enrolled could sign in, no provider
 * could sign anybody in.
 */
const SEALED = {
  providers: { table: 'auth_providers', column: 'client_secret' },
  two_factor: { table: 'users', column: 'two_factor_secret' },
  mail: { table: 'mail_outbox', column: 'payload' },
} as const;
export type SealedKind = keyof typeof SEALED;

export interface KindResealed {
  resealed: number;
  alreadyCurrent: number;
  /** Rows whose value no key given opens: left as they were. */
  unopened: number[];
}

export interface StoredResealResult {
  keyId: string;
  kinds: Record<SealedKind, KindResealed>;
}

/** Rows per transaction: a users table of millions is resealed in short steps. */
const BATCH = 500;

interface SealedRow {
  id: number | string;
  value: string;
}

/**
 * Seals one column's values with the current key, in batches by id. Each value is written only
 * if it is still the one read (compare-and-set, no lock held between batches): a value changed
 * meanwhile was sealed with the current key by whoever changed it.
 */
async function resealColumn(ctx: HandlerContext, kind: SealedKind, prefix: string): Promise<KindResealed> {
  const { db } = ctx;
  const { table, column } = SEALED[kind];
  const keys = secretKeysOf(ctx.config);
  const done: KindResealed = { resealed: 0, alreadyCurrent: 0, unopened: [] };
  let after = 0;
  for (;;) {
    const rows = await db.sequelize.query<SealedRow>(
      `SELECT id, ${column} AS value FROM ${table} WHERE id > :after AND ${column} IS NOT NULL ORDER BY id LIMIT ${BATCH}`,
      { replacements: { after }, type: QueryTypes.SELECT },
    );
    if (rows.length === 0) return done;
    after = Number(rows.at(-1)?.id);
    const changes: Array<{ id: number; from: string; to: string }> = [];
    for (const row of rows) {
      if (row.value.startsWith(prefix)) {
        done.alreadyCurrent += 1;
        continue;
      }
      try {
        changes.push({ id: Number(row.id), from: row.value, to: sealSecret(openSecret(row.value, keys), keys) });
      } catch (err) {
        if (!(err instanceof SecretUnavailable)) throw err;
        done.unopened.push(Number(row.id));
      }
    }
    if (changes.length === 0) continue;
    await writeTransaction(db, async (transaction) => {
      for (const change of changes) {
        const [, affected] = await db.sequelize.query(
          `UPDATE ${table} SET ${column} = :to WHERE id = :id AND ${column} = :from`,
          { replacements: change, type: QueryTypes.UPDATE, transaction },
        );
        done.resealed += Number(affected);
      }
    });
  }
}

/**
 * Seals the providers' client secrets, the users' TOTP secrets and waiting mail with the current
 * SECRETS_KEY, recorded as one `secrets.reseal` event naming the providers changed, the key and
 * each kind's counts (never a value). Null when no key is set.
 */
export async function resealStoredSecrets(ctx: HandlerContext): Promise<StoredResealResult | null> {
  const keys = secretKeysOf(ctx.config);
  if (!keys.current) return null;
  const keyId = keys.current.id;
  const prefix = `v1.${keyId}.`;
  const kinds = {
    providers: await resealColumn(ctx, 'providers', prefix),
    two_factor: await resealColumn(ctx, 'two_factor', prefix),
    mail: await resealColumn(ctx, 'mail', prefix),
  };
  const counts = (k: KindResealed) => ({ ...k, unopened: k.unopened.length });
  await writeTransaction(ctx.db, (tx) =>
    recordChange(ctx.db, tx, {
      ...auditOriginOf(ctx),
      action: 'secrets.reseal',
      targetType: 'auth_provider',
      targetIds: [],
      context: {
        key: keyId,
        providers: { ...counts(kinds.providers), unopened_ids: kinds.providers.unopened },
        two_factor: counts(kinds.two_factor),
        mail: counts(kinds.mail),
      },
    }),
  );
  return { keyId, kinds };
}
