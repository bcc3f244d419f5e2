import type { Database } from "bun:sqlite";
import { logAdd, logWeight } from "../modules/ranking/decay.ts";
import { AFFINITY_HALF_LIFE_DAYS, BEHAVIOUR_HALF_LIFE_DAYS } from "../modules/ranking/half-lives.ts";

/** Decayed weight below which evidence and affinities are dropped. */
const NEGLIGIBLE = 0.01;

/** Evidence for one (query, product), each part a log2 decayed sum (modules/ranking/decay.ts). */
export interface EvidenceLogs {
  evidence: number;
  clicks: number;
  conversions: number;
}

export interface AffinityRow {
  facet: string;
  value: string;
  weight: number;
}

const EMPTY: EvidenceLogs = { evidence: -Infinity, clicks: -Infinity, conversions: -Infinity };
const key = (...parts: string[]) => parts.join("\u0000");

/**
 * Ranking evidence and shopper affinities. The analytics worker sums a batch's additions in memory and writes
 * each key once at flush(), inside its transaction; search reads them.
 */
export class BehaviourRepo {
  private evidence = new Map<string, EvidenceLogs>();
  private affinities = new Map<string, number>();

  constructor(private readonly db: Database) {}

  /** Whether this shopper's event of this kind for this product (and query) is the first today. */
  firstToday(storeId: string, day: string, actor: string, kind: string, query: string, productId: string): boolean {
    return (
      this.db
        .query("INSERT OR IGNORE INTO behaviour_seen (store_id, day, actor, kind, query, product_id) VALUES (?, ?, ?, ?, ?, ?)")
        .run(storeId, day, actor, kind, query, productId).changes > 0
    );
  }

  addEvidence(storeId: string, query: string, productId: string, add: Partial<EvidenceLogs>): void {
    const k = key(storeId, query, productId);
    const e = this.evidence.get(k) ?? { ...EMPTY };
    for (const [part, v] of Object.entries(add) as [keyof EvidenceLogs, number][]) e[part] = logAdd(e[part], v);
    this.evidence.set(k, e);
  }

  addAffinity(storeId: string, shopper: string, facet: string, value: string, logWeight: number): void {
    const k = key(storeId, shopper, facet, value);
    this.affinities.set(k, logAdd(this.affinities.get(k) ?? -Infinity, logWeight));
  }

  flush(): void {
    const readEvidence = this.db.query("SELECT evidence, clicks, conversions FROM behaviour_scores WHERE store_id = ? AND query = ? AND product_id = ?");
    const writeEvidence = this.db.query(
      "INSERT OR REPLACE INTO behaviour_scores (store_id, query, product_id, evidence, clicks, conversions) VALUES (?, ?, ?, ?, ?, ?)",
    );
    for (const [k, add] of this.evidence) {
      const [storeId, query, productId] = k.split("\u0000") as [string, string, string];
      const old = (readEvidence.get(storeId, query, productId) as EvidenceLogs | null) ?? EMPTY;
      writeEvidence.run(storeId, query, productId, ...sqlLogs(logAdd(old.evidence, add.evidence), logAdd(old.clicks, add.clicks), logAdd(old.conversions, add.conversions)));
    }
    const readAffinity = this.db.query("SELECT weight FROM shopper_affinities WHERE store_id = ? AND shopper = ? AND facet = ? AND value = ?");
    const writeAffinity = this.db.query("INSERT OR REPLACE INTO shopper_affinities (store_id, shopper, facet, value, weight) VALUES (?, ?, ?, ?, ?)");
    for (const [k, add] of this.affinities) {
      const [storeId, shopper, facet, value] = k.split("\u0000") as [string, string, string, string];
      const old = (readAffinity.get(storeId, shopper, facet, value) as { weight: number } | null)?.weight ?? NO_LOG;
      writeAffinity.run(storeId, shopper, facet, value, logAdd(fromSql(old), add));
    }
    this.discard();
  }

  discard(): void {
    this.evidence.clear();
    this.affinities.clear();
  }

  /**
   * Drops the once-a-day marks (ranking evidence, and sortBy=purchase's buyers) of days before `day`, and evidence
   * and affinities that have decayed below a hundredth of one click as of `nowMs`: storage stays bounded by recent
   * activity.
   */
  prune(day: string, nowMs: number): void {
    this.db.query("DELETE FROM behaviour_seen WHERE day < ?").run(day);
    this.db.query("DELETE FROM purchase_buyers WHERE day < ?").run(day);
    this.db.query("DELETE FROM behaviour_scores WHERE evidence < ?").run(logWeight(NEGLIGIBLE, nowMs, BEHAVIOUR_HALF_LIFE_DAYS));
    this.db.query("DELETE FROM shopper_affinities WHERE weight < ?").run(logWeight(NEGLIGIBLE, nowMs, AFFINITY_HALF_LIFE_DAYS));
  }

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

  /** Clicks per position over the store's report days since `fromDay`: the examination curve's data. */
  positionClicks(storeId: string, fromDay: string): Map<number, number> {
    const rows = this.db
      .query("SELECT metric, SUM(value) AS value FROM report_daily WHERE store_id = ? AND day >= ? AND metric LIKE 'position:%' GROUP BY metric")
      .all(storeId, fromDay) as { metric: string; value: number }[];
    return new Map(rows.map((r) => [Number(r.metric.slice("position:".length)), r.value]));
  }

  /** The affinities of these shoppers (log weights). */
  affinitiesOf(storeId: string, shoppers: readonly string[]): AffinityRow[] {
    const q = this.db.query("SELECT facet, value, weight FROM shopper_affinities WHERE store_id = ? AND shopper = ?");
    return shoppers.flatMap((shopper) => (q.all(storeId, shopper) as AffinityRow[]).map((r) => ({ ...r, weight: fromSql(r.weight) })));
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

/*
 * SQLite stores -Infinity as a REAL fine, but keep an explicit floor so rows never hold NaN: log sums below it
 * are empty.
 */
const NO_LOG = -1e308;
const fromSql = (v: number) => (v <= NO_LOG ? -Infinity : v);
const sqlLogs = (...v: number[]) => v.map((x) => (x === -Infinity ? NO_LOG : x)) as [number, number, number];
const toLogs = <T extends EvidenceLogs>(r: T): T => ({ ...r, evidence: fromSql(r.evidence), clicks: fromSql(r.clicks), conversions: fromSql(r.conversions) });
