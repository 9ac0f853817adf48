import { DataTypes } from 'sequelize';
import type { Dialect } from '../dialect.js';

// FROZEN — never edit this file. It is the engine-specific column types migrations 0001, 0008,
// 0009 and 0010 were written with (each once held its own identical copy). Changing a line here
// would change what those migrations did to every database created after the change. It is not
// the models' (db/models/columns.ts) for the same reason. A migration that needs another type, or
// a different one, writes its own copy or a new frozen file beside this one.
export function columnTypes(dialect: Dialect) {
  const mysql = dialect === 'mysql';
  return {
    id: mysql ? DataTypes.INTEGER.UNSIGNED : DataTypes.INTEGER,
    fk: mysql ? DataTypes.INTEGER.UNSIGNED : DataTypes.INTEGER,
    date: mysql ? DataTypes.DATE(3) : DataTypes.DATE,
    ciText: (length: number) => (mysql ? DataTypes.STRING(length) : `VARCHAR(${length}) COLLATE NOCASE`),
  };
}
