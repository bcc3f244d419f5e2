/*
 * One error class per failure kind, each with a stable code and its HTTP status. The HTTP layer renders them
 * in one place (http/error-handler.ts); clients branch on `code`, never on message text.
 */

export interface ErrorDetail {
  /** Where the problem is, e.g. "body[3].gender" or "query.pageSize". */
  path: string;
  problem: string;
}

export abstract class AppError extends Error {
  abstract readonly status: number;
  abstract readonly code: string;
  readonly details?: ErrorDetail[];
  /** Extra response headers, e.g. Allow for 405. */
  readonly headers?: Record<string, string>;

  constructor(message: string, details?: ErrorDetail[], headers?: Record<string, string>) {
    super(message);
    this.name = new.target.name;
    if (details?.length) this.details = details;
    if (headers) this.headers = headers;
  }
}

export class ValidationError extends AppError {
  readonly status = 400;
  readonly code = "invalid_request";
}

export class InvalidJsonError extends AppError {
  readonly status = 400;
  readonly code = "invalid_json";
}

export class UnauthorizedError extends AppError {
  readonly status = 401;
  readonly code = "unauthorized";
}

export class ForbiddenOriginError extends AppError {
  readonly status = 403;
  readonly code = "origin_not_allowed";
}

export class NotFoundError extends AppError {
  readonly status = 404;
  readonly code = "not_found";
}

export class MethodNotAllowedError extends AppError {
  readonly status = 405;
  readonly code = "method_not_allowed";
}

/** The resource's current state does not allow the request now (e.g. a webhook delivery being sent); retry later. */
export class ConflictError extends AppError {
  readonly status = 409;
  readonly code = "conflict";
}

/** A per-store limit is reached (e.g. 20 webhook subscriptions); remove something first. */
export class LimitReachedError extends AppError {
  readonly status = 409;
  readonly code = "limit_reached";
}

export class PayloadTooLargeError extends AppError {
  readonly status = 413;
  readonly code = "payload_too_large";
}

export class UnsupportedMediaTypeError extends AppError {
  readonly status = 415;
  readonly code = "unsupported_media_type";
}

/** Too many requests from one client (rate limit); Retry-After says when to try again. */
export class TooManyRequestsError extends AppError {
  readonly status = 429;
  readonly code = "rate_limited";
  constructor(message: string, retryAfterSeconds: number) {
    super(message, undefined, { "retry-after": String(retryAfterSeconds) });
  }
}

/**
 * The service's own storage cannot take the request now (database locked by another process, disk full, a
 * failed write). Nothing was acknowledged; the client may retry after Retry-After.
 */
export class StorageUnavailableError extends AppError {
  readonly status = 503;
  readonly code = "storage_unavailable";
  constructor(message: string, retryAfterSeconds = 1) {
    super(message, undefined, { "retry-after": String(retryAfterSeconds) });
  }
}

/** Failures of the search engine behind the port; the worker retries them. */
export class EngineUnavailableError extends AppError {
  readonly status = 503;
  readonly code: string = "engine_unavailable";
}

export class InternalError extends AppError {
  readonly status = 500;
  readonly code = "internal_error";
}
