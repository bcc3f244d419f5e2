import { createHash } from "node:crypto";

/*
 * Which variant a shopper sees: a hash of the experiment id and the shopper laid over the variants' traffic shares.
 * Nothing is stored and nothing is random, so every replica, thread and restart gives a shopper the same variant,
 * and a shopper of one experiment says nothing about their variant in another.
 */

/** The shopper an experiment follows: the user when signed in, else the session; null when the request names neither. */
export function shopperOf(ids: { userId?: string | null; sessionId?: string | null }): string | null {
  return ids.userId || ids.sessionId || null;
}

/** Where the shopper falls in [0, 100): the first 32 bits of SHA-256, which spreads even near-identical ids evenly. */
function shopperPoint(experimentId: string, shopper: string): number {
  const digest = createHash("sha256").update(experimentId).update("\u0000").update(shopper).digest();
  return (digest.readUInt32BE(0) / 2 ** 32) * 100;
}

/** The index of the variant whose share covers the shopper's point; shares are percentages summing to 100. */
export function assignVariant(experimentId: string, shopper: string, shares: readonly number[]): number {
  const point = shopperPoint(experimentId, shopper);
  let reached = 0;
  for (let i = 0; i < shares.length; i++) {
    reached += shares[i]!;
    if (point < reached) return i;
  }
  return shares.length - 1;
}
