import type { Knex } from 'knex';
import { AppError } from './app-error.js';

export interface PageInput {
  page: number;
  per_page: number;
}

export interface Page<T> {
  data: T[];
  meta: { current_page: number; last_page: number; per_page: number; total: number };
}

/**
 * One page of a query, with the specification's meta. The query must carry its own ordering
 * (with a unique tie-breaker, such as `id`, so pages never overlap).
 */
export async function paginate<Row, T>(
  query: Knex.QueryBuilder,
  input: PageInput,
  toItem: (row: Row) => T,
): Promise<Page<T>> {
  // The schemas bound `page` (schemas/common.ts, MAX_PAGE_OFFSET); an input that skipped them still
  // must not reach OFFSET as an unsafe number.
  const offset = (input.page - 1) * input.per_page;
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw AppError.validation({ page: ['is too large for this list'] });
  }
  const countQuery = query.clone().clearSelect().clearOrder().count<{ n: number }[]>({ n: '*' });
  const [{ n: total }] = await countQuery;
  const rows: Row[] = await query.limit(input.per_page).offset(offset);
  return {
    data: rows.map(toItem),
    meta: {
      current_page: input.page,
      last_page: Math.max(1, Math.ceil(Number(total) / input.per_page)),
      per_page: input.per_page,
      total: Number(total),
    },
  };
}
