import type { Database } from "bun:sqlite";

/**
 * Drops products' stored Search product JSON, for the next page that shows them to shape them again: after an
 * image stage found their colours, or a page found the colours it shaped with replaced. The shapes epoch's
 * triggers count each shape dropped (shape-cache.ts).
 */
export function dropShapesIn(db: Database, storeId: string, ids: readonly string[]): void {
  db.query(
    "UPDATE products SET shaping = NULL, shaped = NULL WHERE store_id = ? AND id IN (SELECT value FROM json_each(?)) AND shaped IS NOT NULL",
  ).run(storeId, JSON.stringify(ids));
}
