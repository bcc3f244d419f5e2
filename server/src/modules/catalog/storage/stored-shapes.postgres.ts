import type postgres from "postgres";
import type { Sql } from "../../../platform/postgres/connection.ts";

/**
 * Drops products' stored Search product JSON, for the next page that shows them to shape them again: products a
 * batch changed or deleted, an image stage found colours for, or a page found the colours it shaped with replaced.
 */
export async function dropShapesIn(sql: Sql | postgres.TransactionSql, storeId: string, ids: readonly string[]): Promise<void> {
  await sql`DELETE FROM search_products WHERE store_id = ${storeId} AND id = ANY(${ids as string[]}::text[])`;
}
