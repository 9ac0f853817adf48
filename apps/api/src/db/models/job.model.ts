import {
  type CreationOptional,
  DataTypes,
  type InferAttributes,
  type InferCreationAttributes,
  Model,
  type Sequelize,
} from 'sequelize';
import type { Dialect } from '../dialect.js';
import { columnTypes } from './columns.js';

/**
 * A background job, as the list engine reads it (GET /jobs: filters and order). The runner and
 * the handlers write jobs with plain statements (jobs/job-store.ts): the lease and the counters
 * are updated under the row's lock, which a model finder would only get in the way of.
 */
export class Job extends Model<InferAttributes<Job>, InferCreationAttributes<Job>> {
  declare id: CreationOptional<number>;
  declare kind: string;
  declare status: string;
  declare actor_id: number | null;
  declare created_at: Date;
}

export function initJobs(sequelize: Sequelize, dialect: Dialect) {
  const t = columnTypes(dialect);
  const JobBound = class extends Job {};
  JobBound.init(
    {
      id: { type: t.id, autoIncrement: true, primaryKey: true },
      kind: { type: DataTypes.STRING(16), allowNull: false },
      status: { type: DataTypes.STRING(16), allowNull: false },
      actor_id: { type: t.fk, allowNull: true },
      created_at: { type: t.date, allowNull: false },
    },
    { sequelize, modelName: 'Job', tableName: 'jobs', timestamps: false },
  );
  return JobBound;
}
