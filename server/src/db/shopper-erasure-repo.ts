import type { Database } from "bun:sqlite";
import { BehaviourRepo } from "./behaviour-repo.ts";
import { stableHash } from "../engine/stable-hash.ts";

/**
 * Erases what the service keeps about one user id: their events, their searches in the search log, their
 * profile and the profiles and working state of the sessions they used. Counts already summed into reports and
 * ranking evidence stay: they hold no id (users and sessions are counted in HyperLogLog sketches, not lists).
 */
export class ShopperErasureRepo {
  constructor(private readonly db: Database) {}

  erase(storeId: string, userId: string): { events: number; searches: number; sessions: number } {
    return this.db.transaction(() => {
      const sessions = (
        this.db.query("SELECT DISTINCT session_id AS s FROM events WHERE store_id = ? AND user_id = ? AND session_id IS NOT NULL").all(storeId, userId) as {
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
      new BehaviourRepo(this.db).eraseShopper(storeId, userId, sessions);
      return { events, searches, sessions: sessions.length };
    })();
  }
}
