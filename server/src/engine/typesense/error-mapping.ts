import { Errors } from "typesense";
import { EngineRejectedError, EngineTransientError } from "../errors.ts";

/*
 * The edge where Typesense failures become our engine errors, branching on the client's error classes (and on
 * HTTP status codes where Typesense reports them inside a 200 answer: multi_search results, import lines).
 * - 400 (RequestMalformed), 422 (ObjectUnprocessable), 409: the request itself is wrong -> EngineRejectedError.
 * - 5xx (ServerError, 503 while a node catches up), timeouts and network failures, after the client's own
 *   retries across nodes -> EngineTransientError.
 * - 401/403 (wrong TYPESENSE_API_KEY): transient too, so a deployment mistake does not fail tasks for good;
 *   fixing the key lets the worker's retries succeed.
 * - 404 (ObjectNotFound) is usually "the store has no collection yet": callers that read treat it as an empty
 *   store before anything reaches this mapping.
 */

/** Internal: the store's alias or collection does not exist (reads answer "empty"; writes create it). */
export class CollectionMissingError extends Error {}

export function isNotFound(error: unknown): boolean {
  return error instanceof Errors.ObjectNotFound || error instanceof CollectionMissingError;
}

export function isAlreadyExists(error: unknown): boolean {
  return error instanceof Errors.ObjectAlreadyExists;
}

function statusError(status: number, message: string): Error {
  if (status === 404) return new CollectionMissingError(message);
  if (status === 400 || status === 409 || status === 422) return new EngineRejectedError(`Typesense rejected the request: ${message}`);
  return new EngineTransientError(`Typesense failed (HTTP ${status}): ${message}`);
}

/** An error Typesense reported with a status inside an otherwise successful answer. */
export function errorForStatus(status: number, message: string): Error {
  return statusError(status, message);
}

export function toEngineError(error: unknown, doing: string): Error {
  if (error instanceof EngineRejectedError || error instanceof EngineTransientError || error instanceof CollectionMissingError)
    return error;
  const message = error instanceof Error ? error.message : String(error);
  if (
    error instanceof Errors.RequestMalformed ||
    error instanceof Errors.ObjectUnprocessable ||
    error instanceof Errors.ObjectAlreadyExists
  ) {
    return new EngineRejectedError(`Typesense rejected ${doing}: ${message}`);
  }
  if (error instanceof Errors.ObjectNotFound) return new CollectionMissingError(`${doing}: ${message}`);
  if (error instanceof Errors.TypesenseError && error.httpStatus !== undefined) {
    return statusError(error.httpStatus, `${doing}: ${message}`);
  }
  // ServerError without a status, MissingConfigurationError, axios network errors (ECONNREFUSED, timeouts).
  return new EngineTransientError(`Typesense unreachable while ${doing}: ${message}`);
}
