import { parseQueryString, type UsersListQuery, usersListQuery } from '@app/contracts';
import { openDatabase } from '../src/db/database.js';
import { usersOrder, usersWhere } from '../src/modules/users/users.list-query.js';

/** Sequelize's SQL writer, as the API's bounded count uses it. */
interface SelectQueryGenerator {
  selectQuery(table: string, options: object, model: object): string;
}

/**
 * The SQL a plain implementation would run for a GET /users request: the page by the same
 * WHERE (LIKE for the search, no index narrowing) and an exact `COUNT(*)` of every match. Built
 * with the API's own query code, so only the search index and the bounded count differ.
 * Null for any other request.
 */
export async function naiveStatements(databaseUrl: string, path: string): Promise<string[] | null> {
  const [route, queryString = ''] = path.split('?');
  if (route !== '/api/users') return null;
  const query = usersListQuery.input.parse(parseQueryString(queryString)) as UsersListQuery;
  const db = await openDatabase({ url: databaseUrl, poolMax: 1 });
  try {
    const { User } = db.models;
    const generator = db.sequelize.getQueryInterface().queryGenerator as SelectQueryGenerator;
    const table = User.getTableName() as string;
    const where = usersWhere(db, query);
    const page = generator.selectQuery(
      table,
      {
        attributes: ['id'],
        where,
        order: usersOrder(query),
        limit: query.perPage,
        offset: (query.page - 1) * query.perPage,
      },
      User,
    );
    const count = generator.selectQuery(table, { attributes: [[db.sequelize.literal('COUNT(*)'), 'n']], where }, User);
    return [page, count];
  } finally {
    await db.close();
  }
}
