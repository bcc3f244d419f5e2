import type { Database } from "bun:sqlite";
import { stableHash } from "../../../engine/stable-hash.ts";
import { shopperKeys, type ShopperErasureRepository } from "./shopper-erasure-repository.ts";
import { writeTransaction } from "../../../platform/sqlite/connection.ts";

/** Erases what the service keeps about one user id, on SQLite. */
export class SqliteShopperErasureRepo implements ShopperErasureRepository {
  constructor(private readonly db: Database) {}

  async erase(storeId: string, userId: string): Promise<{ events: number; searches: number; sessions: number }> {
    return writeTransaction(this.db, () => {
      const sessions = (
        this.db
          .query("SELECT DISTINCT session_id AS s FROM events WHERE store_id = ? AND user_id = ? AND session_id IS NOT NULL")
          .all(storeId, userId) as {
          s: string;
        }[]
      ).map((r) => r.s);
      const events = this.db.query("DELETE FROM events WHERE store_id = ? AND user_id = ?").run(storeId, userId).changes;
      const searches = this.db.query("DELETE FROM search_log WHERE store_id = ? AND user_id = ?").run(storeId, userId).changes;
      // Suggestions count distinct shoppers by a hash of the id (search-log-repo.ts): a hash of a known id is the id.
      this.db.query("DELETE FROM query_shoppers WHERE store_id = ? AND shopper = ?").run(storeId, stableHash(userId));
      const bySession = [
        "DELETE FROM attribution_searches WHERE store_id = ? AND session_id = ?",
        "DELETE FROM attribution_sessions WHERE store_id = ? AND session_id = ?",
      ].map((sql) => this.db.query(sql));
      for (const session of sessions) for (const q of bySession) q.run(storeId, session);
      // Their profile, their sessions' profiles, their recently viewed and bought lists, their once-a-day marks.
      const profile = ["shopper_affinities", "shopper_products"].map((table) =>
        this.db.query(`DELETE FROM ${table} WHERE store_id = ? AND shopper = ?`),
      );
      for (const shopper of shopperKeys(userId, sessions)) for (const q of profile) q.run(storeId, shopper);
      const seen = this.db.query("DELETE FROM behaviour_seen WHERE store_id = ? AND actor = ?");
      for (const actor of [userId, ...sessions]) seen.run(storeId, actor);
      return { events, searches, sessions: sessions.length };
    })();
  }
}
