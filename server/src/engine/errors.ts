import { EngineUnavailableError } from "../errors.ts";

/*
 * Adapters translate their client's failures into these at their edge, so callers branch on type and nothing
 * of an engine's own error classes leaks out.
 */

/** The engine could not be reached or failed transiently: retry later. */
export class EngineTransientError extends EngineUnavailableError {}

/** The engine rejected the request itself: retrying the same request will not help. */
export class EngineRejectedError extends EngineUnavailableError {
  override readonly code = "engine_rejected";
}
