import { ValidationError } from "../errors.ts";

/*
 * What a request says about where it went. Bun builds `request.url` from the Host header, so a missing or odd
 * Host (HTTP/1.0 without one, "a b", "[::1") gives a URL that `new URL()` cannot parse: such requests are refused
 * with a 400 before anything reads their URL, and the rest of the server reads the path through `pathnameOf`,
 * which never throws.
 */

/** A host name (letters, digits, '-', '.', '_'), an IPv4 address or a bracketed IPv6 address, then an optional port. */
const HOST = /^(?:[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,252})|\[[0-9A-Fa-f:.]{2,45}\])(?::(\d{1,5}))?$/;

export function assertValidHost(request: Request): void {
  const host = request.headers.get("host");
  const problem =
    host === null || host === ""
      ? "is missing"
      : !HOST.test(host) || Number(HOST.exec(host)![1] ?? 0) > 65535
        ? "is not a host name with an optional port"
        : URL.canParse(request.url)
          ? null
          : "does not form a valid URL";
  if (problem) {
    throw new ValidationError(`The Host header ${problem}`, [{ path: "header.host", problem }]);
  }
}

/** The request's path, or "" when its URL cannot be parsed (such a request is answered 400 by assertValidHost). */
export function pathnameOf(request: Request): string {
  try {
    return new URL(request.url).pathname;
  } catch {
    return "";
  }
}

/** A client-supplied X-Request-ID is kept only when short and plain, so it cannot forge or flood log lines. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

export function requestIdOf(request: Request): string {
  const supplied = request.headers.get("x-request-id");
  return supplied && REQUEST_ID.test(supplied) ? supplied : crypto.randomUUID();
}
