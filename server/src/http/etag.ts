import { createHash } from "node:crypto";

/* Entity tags and If-None-Match revalidation (RFC 9110 8.8.3, 13.1.2). */

/** 12 hex digits of the content's SHA-256: the same content always gets the same tag, on every server. */
export function shortHash(content: string | Uint8Array): string {
  return createHash("sha256").update(content).digest("hex").slice(0, 12);
}

/**
 * Whether If-None-Match names `etag` (or is `*`), so a GET may answer 304. The comparison is weak, as the RFC
 * asks for If-None-Match: W/"x" and "x" are the same tag.
 */
export function ifNoneMatch(request: Request, etag: string): boolean {
  const header = request.headers.get("if-none-match");
  if (!header) return false;
  if (header.trim() === "*") return true;
  const opaque = etag.replace(/^W\//, "");
  // A client sends the one or few tags it holds; the cap bounds the work a hostile header can cause.
  return header
    .slice(0, 4096)
    .split(",")
    .some((tag) => tag.trim().replace(/^W\//, "") === opaque);
}
