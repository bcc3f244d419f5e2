/*
 * What behaviour ranking and personalisation read at search time (the analytics worker writes it:
 * AnalyticsStateRepository): both durable stores implement it (behaviour-repo.ts on SQLite,
 * postgres/behaviour-repo.ts), held to the same behaviour by repository-conformance.test.ts.
 */
import { fromStoredLog, type EvidenceLogs } from "../../analytics/storage/analytics-state-repository.ts";

export type { EvidenceLogs };

export interface AffinityRow {
  facet: string;
  value: string;
  /** A log2 decayed sum (lib/decay.ts). */
  weight: number;
}

export interface BehaviourRepository {
  hasEvidence(storeId: string): Promise<boolean>;
  /** Evidence for a query's products (query "": per product overall), at most `limit` rows. */
  forQuery(storeId: string, query: string, limit: number): Promise<(EvidenceLogs & { productId: string })[]>;
  /** Per-product evidence of those of `productIds` that have any. */
  forProducts(storeId: string, productIds: readonly string[]): Promise<Map<string, EvidenceLogs>>;
  /** The affinities of these shoppers (u:<userId>, s:<sessionId>). */
  affinitiesOf(storeId: string, shoppers: readonly string[]): Promise<AffinityRow[]>;
}

export const toLogs = <T extends EvidenceLogs>(r: T): T => ({
  ...r,
  evidence: fromStoredLog(r.evidence),
  clicks: fromStoredLog(r.clicks),
  conversions: fromStoredLog(r.conversions),
});
export const toAffinity = (r: AffinityRow): AffinityRow => ({ ...r, weight: fromStoredLog(r.weight) });
