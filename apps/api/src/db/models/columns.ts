import { DataTypes } from 'sequelize';
import type { Dialect } from '../dialect.js';

/**
 * Column types that differ per engine, shared by models and migrations.
 * SQLite needs INTEGER PRIMARY KEY for a rowid alias; MySQL gets unsigned ids and
 * millisecond timestamps. Text compared case-insensitively gets NOCASE on SQLite (MySQL
 * tables use the case-insensitive utf8mb4_unicode_ci collation).
 */
export function columnTypes(dialect: Dialect) {
  const mysql = dialect === 'mysql';
  return {
    id: mysql ? DataTypes.INTEGER.UNSIGNED : DataTypes.INTEGER,
    fk: mysql ? DataTypes.INTEGER.UNSIGNED : DataTypes.INTEGER,
    date: mysql ? DataTypes.DATE(3) : DataTypes.DATE,
    ciText: (length: number) => (mysql ? DataTypes.STRING(length) : `VARCHAR(${length}) COLLATE NOCASE`),
  };
}
