import { EngineUnavailableError } from "../errors.ts";

/*
 * Adapters translate their client's failures into these at their edge, so callers branch on type and nothing
 * of an engine's own error classes leaks out.
 */

/** Seconds a client is told to wait before it retries: a cluster's failed node is out of its rotation by then. */
const RETRY_AFTER_S = 5;

/** The engine could not be reached or failed transiently: retry later (the answer's Retry-After says when). */
export class EngineTransientError extends EngineUnavailableError {
  constructor(message: string) {
    super(message, undefined, { "retry-after": String(RETRY_AFTER_S) });
  }
}

/** The engine rejected the request itself: retrying the same request will not help. */
export class EngineRejectedError extends EngineUnavailableError {
  override readonly code = "engine_rejected";
}
