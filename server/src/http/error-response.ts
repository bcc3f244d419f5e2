import { AppError, InternalError, MethodNotAllowedError, NotFoundError, ValidationError, type ErrorDetail } from "../errors.ts";
import { joinPath } from "../schema-check.ts";

/* The one place where failures become HTTP responses: { message, code, details? } with the class's status. */

interface ElysiaValidationLike {
  type?: string;
  on?: string;
  all?: { path?: string; message?: string; summary?: string }[];
}

function readableProblem(summary: string): string {
  if (/should be one of: 'numeric', 'number'/.test(summary)) return "must be a number";
  if (/should be one of: .*'date-time'/.test(summary)) return "must be an ISO 8601 date-time or Unix milliseconds";
  return summary.replace(/^Expected/, "expected").replace(/^Property '[^']+' /, "");
}

/** Elysia's own schema validation (query, params) reported in our shape. */
function fromElysiaValidation(error: ElysiaValidationLike): ValidationError {
  const where = error.on ?? error.type;
  const on = where === "query" ? "query" : where === "params" ? "path" : "body";
  const details: ErrorDetail[] = (error.all ?? []).slice(0, 20).map((e) => ({
    path: joinPath(on, e.path ?? ""),
    problem: readableProblem(e.summary ?? e.message ?? "is invalid"),
  }));
  const first = details[0];
  return new ValidationError(first ? `Invalid ${on}: ${first.path} ${first.problem}` : `Invalid ${on}`, details);
}

export function toAppError(code: string | number, error: unknown, allowedMethods: () => string[] | null): AppError {
  if (error instanceof AppError) return error;
  // Elysia wraps what a parse hook throws; our body reader throws AppErrors.
  if (code === "PARSE" && (error as { cause?: unknown })?.cause instanceof AppError) return (error as { cause: AppError }).cause;
  if (code === "VALIDATION") return fromElysiaValidation(error as ElysiaValidationLike);
  if (code === "NOT_FOUND") {
    const allow = allowedMethods();
    if (allow?.length) {
      return new MethodNotAllowedError(`This path answers ${allow.join(", ")}`, undefined, { allow: allow.join(", ") });
    }
    return new NotFoundError("No such route; see /docs for the API");
  }
  if (code === "PARSE") return new ValidationError("The request could not be parsed");
  return new InternalError("Unexpected server error; it has been logged with the request id");
}

export function renderError(error: AppError, headers: Record<string, string>, requestId: string): Response {
  const body: Record<string, unknown> = { message: error.message, code: error.code };
  if (error.details?.length) body.details = error.details;
  body.requestId = requestId;
  return new Response(JSON.stringify(body), {
    status: error.status,
    headers: { ...headers, ...error.headers, "content-type": "application/json; charset=utf-8" },
  });
}
