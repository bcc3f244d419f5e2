import type { Database } from "bun:sqlite";
import { LOOK_CLICK_EVIDENCE, ORDER_EVIDENCE, orderPairs } from "./look-pairs.ts";

/*
 * Evidence that two products go together, from shopper events: bought in one order, or one clicked in the
 * other's look. Written inside the transaction that stores the events, so evidence and events never disagree.
 */

export class SqliteLookPairsRepo {
  constructor(private readonly db: Database) {}

  /** An order counted for the first time: its pairs (orderPairs). */
  countOrder(storeId: string, productIds: readonly string[]): void {
    for (const [a, b] of orderPairs(productIds)) this.add(storeId, a, b, ORDER_EVIDENCE);
  }

  /** A product clicked in another's look (event-effects.ts decides which clicks count); once per session and pair. */
  countLookClick(storeId: string, sessionId: string, baseId: string, clickedId: string): void {
    const fresh = this.db
      .query("INSERT OR IGNORE INTO look_clicks (store_id, session_id, product_id, other_id) VALUES (?, ?, ?, ?)")
      .run(storeId, sessionId, baseId, clickedId);
    if (fresh.changes > 0) this.add(storeId, baseId, clickedId, LOOK_CLICK_EVIDENCE);
  }

  /** The evidence of each product paired with this one. */
  partners(storeId: string, productId: string): Map<string, number> {
    const rows = this.db
      .query("SELECT other_id AS id, evidence FROM look_pairs WHERE store_id = ? AND product_id = ?")
      .all(storeId, productId) as { id: string; evidence: number }[];
    return new Map(rows.map((r) => [r.id, r.evidence]));
  }

  private add(storeId: string, a: string, b: string, evidence: number): void {
    const add = this.db.query(
      `INSERT INTO look_pairs (store_id, product_id, other_id, evidence) VALUES (?, ?, ?, ?)
       ON CONFLICT (store_id, product_id, other_id) DO UPDATE SET evidence = evidence + excluded.evidence`,
    );
    add.run(storeId, a, b, evidence);
    add.run(storeId, b, a, evidence);
  }
}
