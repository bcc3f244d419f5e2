/*
 * Time-decayed sums kept in log space. A weight w at time t with half-life h contributes w * 2^(-(now - t)/h)
 * at `now`; stored as log2(sum of w * 2^(t/h)), an event adds by a log-add and the sum never needs rewriting as
 * time passes (a linear sum of 2^(t/h) would overflow a double after a few decades with a 7-day half-life).
 */

const DAY_MS = 86_400_000;

/** An empty sum. */
export const NO_EVIDENCE = -Infinity;

/** log2 of w * 2^(t/h): an event of weight w at time t (ms). */
export const logWeight = (weight: number, atMs: number, halfLifeDays: number): number => Math.log2(weight) + atMs / DAY_MS / halfLifeDays;

/** log2(2^a + 2^b), without overflow. */
export function logAdd(a: number, b: number): number {
  if (a === -Infinity) return b;
  if (b === -Infinity) return a;
  const hi = Math.max(a, b);
  return hi + Math.log2(1 + 2 ** (Math.min(a, b) - hi));
}

/** The decayed sum at `nowMs`. */
export const decayed = (logSum: number, nowMs: number, halfLifeDays: number): number => 2 ** (logSum - nowMs / DAY_MS / halfLifeDays);
