import type { Database } from "bun:sqlite";
import { fromStoredLog, type EvidenceLogs } from "./analytics-state-repository.ts";

export type { EvidenceLogs };

export interface AffinityRow {
  facet: string;
  value: string;
  weight: number;
}

/** Ranking evidence and shopper affinities as search reads them (the analytics worker writes them: analytics-state-repo.ts). */
export class BehaviourRepo {
  constructor(private readonly db: Database) {}

  hasEvidence(storeId: string): boolean {
    return this.db.query("SELECT 1 FROM behaviour_scores WHERE store_id = ? LIMIT 1").get(storeId) !== null;
  }

  /** Evidence for a query's products (query "": per product overall), at most `limit` rows. */
  forQuery(storeId: string, query: string, limit: number): (EvidenceLogs & { productId: string })[] {
    return (
      this.db
        .query("SELECT product_id AS productId, evidence, clicks, conversions FROM behaviour_scores WHERE store_id = ? AND query = ? LIMIT ?")
        .all(storeId, query, limit) as (EvidenceLogs & { productId: string })[]
    ).map(toLogs);
  }

  /** Per-product evidence for these products. */
  forProducts(storeId: string, productIds: readonly string[]): Map<string, EvidenceLogs> {
    const q = this.db.query("SELECT evidence, clicks, conversions FROM behaviour_scores WHERE store_id = ? AND query = '' AND product_id = ?");
    const out = new Map<string, EvidenceLogs>();
    for (const id of productIds) {
      const row = q.get(storeId, id) as EvidenceLogs | null;
      if (row) out.set(id, toLogs(row));
    }
    return out;
  }

  /** The affinities of these shoppers (log weights). */
  affinitiesOf(storeId: string, shoppers: readonly string[]): AffinityRow[] {
    const q = this.db.query("SELECT facet, value, weight FROM shopper_affinities WHERE store_id = ? AND shopper = ?");
    return shoppers.flatMap((shopper) => (q.all(storeId, shopper) as AffinityRow[]).map((r) => ({ ...r, weight: fromStoredLog(r.weight) })));
  }

  /** Erases a user: their profile, their sessions' profiles, their once-a-day marks. Returns the sessions they used. */
  eraseShopper(storeId: string, userId: string, sessionIds: readonly string[]): void {
    const shoppers = [`u:${userId}`, ...sessionIds.map((s) => `s:${s}`)];
    const profile = this.db.query("DELETE FROM shopper_affinities WHERE store_id = ? AND shopper = ?");
    const seen = this.db.query("DELETE FROM behaviour_seen WHERE store_id = ? AND actor = ?");
    for (const shopper of shoppers) profile.run(storeId, shopper);
    for (const actor of [userId, ...sessionIds]) seen.run(storeId, actor);
  }
}

const toLogs = <T extends EvidenceLogs>(r: T): T => ({ ...r, evidence: fromStoredLog(r.evidence), clicks: fromStoredLog(r.clicks), conversions: fromStoredLog(r.conversions) });
