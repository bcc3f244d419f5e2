/*
 * Erasing what the service keeps about one user id (DELETE /users/{userId}): both durable stores implement it
 * (shopper-erasure-repo.ts, postgres/shopper-erasure-repo.ts), held to the same behaviour by
 * repository-conformance.test.ts.
 */
export interface ShopperErasureRepository {
  /**
   * Deletes their events, their searches in the search log, their profile (affinities, recently viewed and bought
   * products) and the profiles and working state of the sessions they used, in one transaction. Counts already
   * summed into reports, ranking evidence and recommendation models stay: they hold no id (users and sessions are
   * counted in HyperLogLog sketches, not lists).
   */
  erase(storeId: string, userId: string): Promise<{ events: number; searches: number; sessions: number }>;
}

/** A session's shopper key in the affinities (u:<userId>, s:<sessionId>). */
export const shopperKeys = (userId: string, sessions: readonly string[]) => [`u:${userId}`, ...sessions.map((s) => `s:${s}`)];

/** The shopper keys of a user id and a session id, either of which may be missing: none for an anonymous shopper. */
export const shopperKeysOf = (ids: { userId?: string | null; sessionId?: string | null }): string[] => [
  ...(ids.userId ? [`u:${ids.userId}`] : []),
  ...(ids.sessionId ? [`s:${ids.sessionId}`] : []),
];
