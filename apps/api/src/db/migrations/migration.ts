import type { QueryInterface } from 'sequelize';
import type { Dialect } from '../dialect.js';

/** What every migration is: a frozen pair of steps, given the query interface and the engine. */
export interface MigrationContext {
  qi: QueryInterface;
  dialect: Dialect;
  /** Progress of long data migrations (index builds), for the operator watching the start. */
  progress?: (message: string) => void;
}

export interface Migration {
  name: string;
  up(ctx: MigrationContext): Promise<void>;
  down(ctx: MigrationContext): Promise<void>;
}
