import type { Database } from '../../db/database.js';

/**
 * SQL pieces a SCIM filter is written with, per engine. Every value goes through the driver's
 * escaping (`sequelize.escape`); nothing the client sent is concatenated raw.
 *
 * Case: MariaDB's tables use utf8mb4_unicode_ci, so `=`, `<` and LIKE already ignore case, and a
 * caseExact comparison asks for utf8mb4_bin. SQLite compares with BINARY unless told otherwise:
 * a case-insensitive comparison adds COLLATE NOCASE (an expression such as the name's last word
 * has no collation of its own), and a caseExact substring uses GLOB (its LIKE ignores ASCII case).
 */
export interface FilterSql {
  db: Database;
  /** A value as an SQL literal. */
  value(v: string | number | Date): string;
  /** `expr op value` for =, <>, <, <=, >, >=, with or without regard to case. */
  compare(expr: string, op: '=' | '<>' | '<' | '<=' | '>' | '>=', value: string, caseExact: boolean): string;
  /** `expr` contains / starts with / ends with `value`, every character of it literal. */
  substring(expr: string, kind: 'co' | 'sw' | 'ew', value: string, caseExact: boolean): string;
}

export const TRUE_SQL = '1=1';
export const FALSE_SQL = '1=0';

export function filterSql(db: Database): FilterSql {
  const mysql = db.dialect === 'mysql';
  const value = (v: string | number | Date) => db.sequelize.escape(v);
  // As the list engine's `sqlHelpers().contains`: MySQL string literals treat `\` as an escape.
  const escapeClause = mysql ? "ESCAPE '\\\\'" : "ESCAPE '\\'";
  const likePattern = (kind: 'co' | 'sw' | 'ew', v: string) => {
    const literal = v.replace(/[\\%_]/g, (c) => `\\${c}`);
    return kind === 'co' ? `%${literal}%` : kind === 'sw' ? `${literal}%` : `%${literal}`;
  };
  const globPattern = (kind: 'co' | 'sw' | 'ew', v: string) => {
    const literal = v.replace(/[*?[]/g, (c) => `[${c}]`);
    return kind === 'co' ? `*${literal}*` : kind === 'sw' ? `${literal}*` : `*${literal}`;
  };
  return {
    db,
    value,
    compare(expr, op, v, caseExact) {
      if (mysql && caseExact) {
        // The plain comparison first, so an index on the (case-insensitive) column still serves.
        const exact = `${expr} COLLATE utf8mb4_bin ${op} ${value(v)}`;
        return op === '=' ? `(${expr} = ${value(v)} AND ${exact})` : exact;
      }
      const collated = !mysql && !caseExact ? `${expr} COLLATE NOCASE` : expr;
      return `${collated} ${op} ${value(v)}`;
    },
    substring(expr, kind, v, caseExact) {
      if (!caseExact) return `${expr} LIKE ${value(likePattern(kind, v))} ${escapeClause}`;
      if (mysql) return `${expr} COLLATE utf8mb4_bin LIKE ${value(likePattern(kind, v))} ${escapeClause}`;
      return `${expr} GLOB ${value(globPattern(kind, v))}`;
    },
  };
}
