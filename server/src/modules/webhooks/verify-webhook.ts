import { createHmac, timingSafeEqual } from "node:crypto";

/*
 * Webhook signatures, for the service (signing) and for receivers (verifying). This file imports nothing from
 * the service: a store may copy it as it is (Node.js 18+, Bun, Deno with node: imports).
 *
 * The signature is the base64 HMAC-SHA256, keyed with the subscription's secret (its UTF-8 bytes), of
 *   x-service-store-id "." x-service-ts "." x-service-topic "." x-service-webhook-id "." <raw body>
 * and is sent in x-service-hmac-sha256.
 */

/** The x-service-hmac-sha256 value for a call. */
export function webhookSignature(
  secret: string,
  parts: { storeId: string; ts: string; topic: string; webhookId: string },
  rawBody: string | Uint8Array,
): string {
  const hmac = createHmac("sha256", secret);
  hmac.update(`${parts.storeId}.${parts.ts}.${parts.topic}.${parts.webhookId}.`, "utf8");
  hmac.update(typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : rawBody);
  return hmac.digest("base64");
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const bag = headers as Record<string, string | string[] | undefined>;
  const value = bag[name] ?? Object.entries(bag).find(([k]) => k.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Whether a webhook call is genuine: its signature matches (compared in constant time) and, when `maxAgeMs` is
 * given, its x-service-ts is no further than that from `now` (either way), so a recorded call cannot be
 * replayed later. `rawBody` must be the body exactly as received (the bytes, or their UTF-8 text), not JSON
 * parsed and serialised again. `headers`: a fetch Headers object or Node's req.headers.
 */
export function verifyWebhook(
  secret: string,
  headers: HeaderBag,
  rawBody: string | Uint8Array,
  opts: { maxAgeMs?: number; now?: number } = {},
): boolean {
  const storeId = header(headers, "x-service-store-id");
  const ts = header(headers, "x-service-ts");
  const topic = header(headers, "x-service-topic");
  const webhookId = header(headers, "x-service-webhook-id");
  const given = header(headers, "x-service-hmac-sha256");
  if (!secret || !storeId || !ts || !topic || !webhookId || !given) return false;
  if (!/^\d{1,16}$/.test(ts)) return false;
  if (opts.maxAgeMs !== undefined && Math.abs((opts.now ?? Date.now()) - Number(ts)) > opts.maxAgeMs) return false;
  const expected = Buffer.from(webhookSignature(secret, { storeId, ts, topic, webhookId }, rawBody), "base64");
  const presented = Buffer.from(given, "base64");
  // A base64 that does not decode to 32 bytes cannot match; timingSafeEqual needs equal lengths.
  if (presented.length !== expected.length) return false;
  return timingSafeEqual(presented, expected);
}
