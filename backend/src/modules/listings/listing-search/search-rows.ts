import type { PreparedQueries } from '../../../infra/database/prepared-queries.js';
import type { ReadFrom } from '../../../infra/database/replica-reads.js';
import type { Fragment, ListingRow, ListingSearchSql, SearchPlan } from './search-sql.js';

/** A page's rows (a row more than its limit, when another page follows) and the cursor of the next page. */
export interface RowsPage {
  rows: ListingRow[];
  nextCursor: string | null;
}

/**
 * A search's SQL run, its values always bound: prepared, with a generic plan, when the SQL fixes its
 * own plan, else planned for its values (PreparedQueries).
 */
export function searchRows<T>(prepared: PreparedQueries, query: Fragment, planFixed: boolean, from: ReadFrom): Promise<T[]> {
  return planFixed ? prepared.all<T>(query.sql, query.params, from) : prepared.bound<T>(query.sql, query.params, from);
}

/**
 * One page of the search under its plan; none without asking the database when planning counted no
 * match (a broken cursor is still refused: the answer must not depend on what the database holds).
 */
export async function pageRows(prepared: PreparedQueries, sql: ListingSearchSql, plan: SearchPlan, from: ReadFrom): Promise<RowsPage> {
  if (plan.matches === 0) {
    sql.checkCursor(plan);
    return { rows: [], nextCursor: null };
  }
  const rows = await searchRows<ListingRow>(prepared, sql.page(plan), sql.pagePlanFixed(plan), from);
  return { rows, nextCursor: sql.nextCursor(rows, plan) };
}
