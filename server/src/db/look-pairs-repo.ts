import type { Database } from "bun:sqlite";

/*
 * Evidence that two products go together, from shopper events: bought in one order, or one clicked in the
 * other's look. Written inside the transaction that stores the events, so evidence and events never disagree.
 */

/** Evidence of one order with both products, and of one look click. */
export const ORDER_EVIDENCE = 1;
export const LOOK_CLICK_EVIDENCE = 0.3;
/** Products of an order paired at most (its first ones): 20 give 190 pairs, however large the order. */
const MAX_ORDER_PRODUCTS = 20;

export class LookPairsRepo {
  constructor(private readonly db: Database) {}

  /** An order counted for the first time: every pair of its distinct products. */
  countOrder(storeId: string, productIds: readonly string[]): void {
    const ids = [...new Set(productIds)].slice(0, MAX_ORDER_PRODUCTS);
    for (let i = 0; i < ids.length; i++) for (let j = i + 1; j < ids.length; j++) this.add(storeId, ids[i]!, ids[j]!, ORDER_EVIDENCE);
  }

  /** A product clicked in another's look; counted once per session and pair, and only with a session to tell. */
  countLookClick(storeId: string, sessionId: string | null, baseId: string, clickedId: string): void {
    if (!sessionId || baseId === clickedId) return;
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
