import { type AttributeValue, attributePath, type ImportMode, type UserAttributesInput } from '@app/contracts';
import { QueryTypes, type Transaction } from 'sequelize';
import type { HandlerContext } from '../../context.js';
import type { Database } from '../../db/database.js';
import { type AttributeWrite, planAttributeValues } from '../../domain/attributes.values-plan.js';
import { liveUserIds } from '../attributes/attribute-values.write.js';
import { valuesOf } from '../attributes/attribute-values.repository.js';
import {
  type AttributeDefinition,
  listDefinitions,
  lockDefinitionsShared,
  valueColumns,
} from '../attributes/attributes.repository.js';
import { namedAccount } from './import.decide.js';
import { readAttributeCell, userCellEmail } from './import.attribute-cells.js';
import { withValueKeysDeferred } from '../users/users.enum-keys-deferral.js';
import type { LineProblem, ValidLine } from './import.lines.js';

/**
 * A chunk's custom attribute cells, judged as every door judges values: each cell read as its
 * type (import.attribute-cells.ts), then the values' plan (domain/attributes.values-plan.ts: an
 * attribute the submitter may see, the definition's rules, the required ones for a new account),
 * a user reference to a live account, a unique value no other account (nor an earlier line)
 * holds. A refused cell is the line's problem, INVALID_ATTRIBUTE with the plan's sentence.
 */

/** What each account of the chunk holds now of the attributes its line writes, by key. */
export type HeldValues = ReadonlyMap<number, ReadonlyMap<string, AttributeValue>>;

export interface ChunkAttributes {
  /** Each line's values, or its problem, by line number (lines without cells are absent). */
  judged: Map<number, AttributeWrite[] | LineProblem>;
  held: HeldValues;
}

/** What finds the account a line names (import.decide.ts `namedAccount`). */
type NamingFacts = Parameters<typeof namedAccount>[1];

const problem = (message: string): LineProblem => ({ code: 'INVALID_ATTRIBUTE', message });
const takenMessage = (d: AttributeDefinition) => `Another user already has this ${d.label}: it must be unique.`;

/** The live accounts the `user` cells name by e-mail (canonical e-mail → id). */
async function usersByEmail(db: Database, tx: Transaction, emails: readonly string[]): Promise<Map<string, number>> {
  if (emails.length === 0) return new Map();
  const rows = await db.sequelize.query<{ id: number | string; email: string }>(
    'SELECT id, email FROM users WHERE email IN (:emails) AND deleted_at IS NULL',
    { replacements: { emails: [...new Set(emails)] }, type: QueryTypes.SELECT, transaction: tx },
  );
  return new Map(rows.map((r) => [r.email.toLowerCase(), Number(r.id)]));
}

/** Who holds each unique value the writes name: `<attribute id>:<unique value>` → user id. */
async function uniqueHolders(db: Database, tx: Transaction, writes: readonly AttributeWrite[]) {
  const wanted = writes.filter((w) => w.definition.unique && w.value !== null);
  const holders = new Map<string, number>();
  if (wanted.length === 0) return holders;
  const rows = await db.sequelize.query<{
    attribute_id: number | string;
    unique_value: string;
    user_id: number | string;
  }>(
    'SELECT attribute_id, unique_value, user_id FROM user_attribute_values WHERE attribute_id IN (:ids) AND unique_value IN (:values)',
    {
      replacements: {
        ids: [...new Set(wanted.map((w) => w.definition.id))],
        values: [...new Set(wanted.map((w) => valueColumns(w.value as AttributeValue, true).unique_value))],
      },
      type: QueryTypes.SELECT,
      transaction: tx,
    },
  );
  for (const r of rows) holders.set(`${Number(r.attribute_id)}:${r.unique_value}`.toLowerCase(), Number(r.user_id));
  return holders;
}

/** What `accountIds` hold of `definitions`, by account and key (the accounts holding any). */
export async function heldValues(
  db: Database,
  tx: Transaction,
  accountIds: readonly number[],
  definitions: readonly AttributeDefinition[],
): Promise<Map<number, Map<string, AttributeValue>>> {
  const out = new Map<number, Map<string, AttributeValue>>();
  for (const [id, values] of await valuesOf(db, accountIds, definitions, tx)) {
    if (Object.keys(values).length > 0) out.set(id, new Map(Object.entries(values)));
  }
  return out;
}

/**
 * Judges the cells of the chunk's lines that will create or update an account (a line the
 * decisions skip anyway keeps its own reason). `firstLines`: the first line of each e-mail.
 */
export async function judgeChunkAttributes(
  ctx: HandlerContext,
  tx: Transaction,
  lines: readonly ValidLine[],
  facts: NamingFacts & { firstLines: ReadonlyMap<string, number> },
  settings: { mode: ImportMode; restore: boolean },
): Promise<ChunkAttributes> {
  const { db } = ctx;
  const takesPart = (l: ValidLine) => {
    const account = namedAccount(l, facts);
    if ((facts.firstLines.get(l.email) ?? l.line) < l.line) return false;
    // A line whose id names no account creates nothing: it keeps its own reason (ID_NOT_FOUND).
    if (l.id !== null && !account) return false;
    return !account || (account.deleted ? settings.restore : settings.mode === 'upsert');
  };
  const judgedLines = lines.filter(takesPart);
  const creates = judgedLines.some((l) => !namedAccount(l, facts));
  const keys = [...new Set(judgedLines.flatMap((l) => Object.keys(l.attributeCells)))];
  const named = await lockDefinitionsShared(db, tx, keys);
  // A new account must be given every required attribute: those the file does not name count too.
  const definitions = creates
    ? [...named, ...(await listDefinitions(db, tx)).filter((d) => !keys.includes(d.key))]
    : named;
  const byKey = new Map(definitions.map((d) => [d.key, d]));
  const emails = judgedLines.flatMap((l) =>
    Object.entries(l.attributeCells).flatMap(([key, raw]) =>
      byKey.get(key)?.type === 'user' ? (userCellEmail(raw) ?? []) : [],
    ),
  );
  const known = await usersByEmail(db, tx, emails);
  const judged = new Map<number, AttributeWrite[] | LineProblem>();
  for (const line of judgedLines) {
    const account = namedAccount(line, facts);
    if (Object.keys(line.attributeCells).length === 0 && account) continue;
    const input: UserAttributesInput = {};
    let refused: LineProblem | null = null;
    for (const [key, raw] of Object.entries(line.attributeCells)) {
      const d = byKey.get(key);
      const read = d ? readAttributeCell(d.type, raw, known) : { value: raw };
      if ('unknownUser' in read) refused ??= problem(`${d?.label} must name a user who exists and is not deleted.`);
      else input[key] = read.value;
    }
    const plan = planAttributeValues(ctx.actor, definitions, input, { creating: !account });
    if (!refused && 'errors' in plan)
      refused = problem(Object.values(plan.errors)[0]?.[0] ?? 'An attribute is not valid.');
    judged.set(line.line, refused ?? ('writes' in plan ? plan.writes : []));
  }
  await referencesAndUniques(ctx, tx, judged, lines, facts);
  const accountIds = judgedLines.flatMap((l) => namedAccount(l, facts)?.id ?? []);
  return { judged, held: await heldValues(db, tx, accountIds, named) };
}

/** The checks that need the database: references name live users, unique values are free (and once in the file). */
async function referencesAndUniques(
  ctx: HandlerContext,
  tx: Transaction,
  judged: Map<number, AttributeWrite[] | LineProblem>,
  lines: readonly ValidLine[],
  facts: NamingFacts,
) {
  const all = [...judged.values()].flatMap((j) => (Array.isArray(j) ? j : []));
  const refs = all.filter((w) => w.definition.type === 'user' && w.value !== null).map((w) => Number(w.value));
  const live = await liveUserIds(ctx.db, tx, refs);
  const holders = await uniqueHolders(ctx.db, tx, all);
  const claimed = new Map<string, number>();
  for (const line of lines) {
    const writes = judged.get(line.line);
    if (!Array.isArray(writes)) continue;
    const accountId = namedAccount(line, facts)?.id ?? null;
    for (const w of writes) {
      const d = w.definition as AttributeDefinition;
      if (w.value === null) continue;
      if (d.type === 'user' && !live.has(Number(w.value))) {
        judged.set(line.line, problem(`${d.label} must name a user who exists and is not deleted.`));
        break;
      }
      if (!d.unique) continue;
      const slot = `${d.id}:${valueColumns(w.value, true).unique_value}`.toLowerCase();
      const holder = holders.get(slot);
      const earlier = claimed.get(slot);
      if ((holder !== undefined && holder !== accountId) || earlier !== undefined) {
        const message =
          earlier === undefined ? takenMessage(d) : `Line ${earlier} already has this ${d.label}: it must be unique.`;
        judged.set(line.line, problem(message));
        break;
      }
      claimed.set(slot, line.line);
    }
  }
}

const VALUES_INSERT =
  'INSERT INTO user_attribute_values (attribute_id, user_id, text_value, number_value, unique_value) VALUES :rows';

/**
 * Writes values for many accounts: per attribute, one DELETE of the old values (`replacing`) and
 * multi-row INSERTs of the new (null clears). Two writers racing for one unique value: the index
 * decides, and the caller's chunk is decided again.
 */
export async function storeValues(
  db: Database,
  tx: Transaction,
  items: ReadonlyArray<{ userId: number; write: AttributeWrite }>,
  { replacing }: { replacing: boolean },
): Promise<void> {
  const byAttribute = new Map<number, Array<{ userId: number; write: AttributeWrite }>>();
  for (const item of items)
    byAttribute.set(item.write.definition.id, [...(byAttribute.get(item.write.definition.id) ?? []), item]);
  for (const [attributeId, group] of byAttribute) {
    const ids = group.map((g) => g.userId);
    const rows = group.flatMap(({ userId, write }) => {
      if (write.value === null) return [];
      const c = valueColumns(write.value, write.definition.unique);
      return [[attributeId, userId, c.text_value, c.number_value, c.unique_value]];
    });
    await withValueKeysDeferred(db, tx, attributeId, ids, async () => {
      if (replacing) {
        await db.sequelize.query(
          'DELETE FROM user_attribute_values WHERE attribute_id = :attributeId AND user_id IN (:ids)',
          { replacements: { attributeId, ids }, transaction: tx },
        );
      }
      for (let i = 0; i < rows.length; i += 1_000) {
        await db.sequelize.query(VALUES_INSERT, { replacements: { rows: rows.slice(i, i + 1_000) }, transaction: tx });
      }
    });
  }
}

/** The audit context marking which of `fields` are personal or sensitive attributes (nothing when none). */
export function sensitivityOf(writes: readonly AttributeWrite[], fields: readonly string[]) {
  const out: Record<string, string> = {};
  for (const w of writes) {
    const field = attributePath(w.definition.key);
    if (w.definition.sensitivity !== 'none' && fields.includes(field)) out[field] = w.definition.sensitivity;
  }
  return Object.keys(out).length > 0 ? { sensitivity: out } : {};
}
