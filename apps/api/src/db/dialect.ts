/** The two engines the product runs on: embedded SQLite, or MySQL/MariaDB. */
export type Dialect = 'sqlite' | 'mysql';
