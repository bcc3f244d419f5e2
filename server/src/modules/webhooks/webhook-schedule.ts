/*
 * When a failed webhook delivery is tried again. After the first failed call, the retries wait 30 s three times,
 * 2 min three times, 5 min three times, 1 h three times, 6 h twice and 24 h once: 16 calls in all, then the
 * delivery is dead. A wait runs from the end of the failed attempt. WEBHOOK_RETRY_TIME_SCALE multiplies the
 * waits (tests), never the time-out.
 */

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** The wait after failed attempt n (1-based) is RETRY_WAITS_MS[n - 1]. */
export const RETRY_WAITS_MS: readonly number[] = [
  30 * SECOND,
  30 * SECOND,
  30 * SECOND,
  2 * MINUTE,
  2 * MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  5 * MINUTE,
  5 * MINUTE,
  HOUR,
  HOUR,
  HOUR,
  6 * HOUR,
  6 * HOUR,
  24 * HOUR,
];

/** Calls per delivery: the first and its 15 retries. */
export const MAX_ATTEMPTS = RETRY_WAITS_MS.length + 1;

/** A receiver's answer (status line) must arrive within this, from the attempt's start (DNS, connect, TLS included). */
export const ATTEMPT_TIMEOUT_MS = 5_000;

/**
 * When to try again after failed attempt `attempt` (1-based) that ended at `endedAt`, or null when it was the
 * last (the delivery is dead).
 */
export function nextAttemptAt(attempt: number, endedAt: number, timeScale: number): number | null {
  if (attempt >= MAX_ATTEMPTS) return null;
  return endedAt + Math.ceil(RETRY_WAITS_MS[attempt - 1]! * timeScale);
}

/**
 * The same for an attempt a stopped or killed process left in flight: its end is unknown, so the wait runs from
 * its start, and is at least the time-out, after which that attempt's request is over wherever the process
 * died. So even with a tiny time scale a restart never has two calls of one delivery open at once.
 */
export function nextAttemptAfterInterruption(attempt: number, startedAt: number, timeScale: number): number | null {
  if (attempt >= MAX_ATTEMPTS) return null;
  return startedAt + Math.max(Math.ceil(RETRY_WAITS_MS[attempt - 1]! * timeScale), ATTEMPT_TIMEOUT_MS);
}
