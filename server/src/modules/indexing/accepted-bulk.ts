import type { ValidationReport } from "@storefront-search/contract";
import { parseJsonText } from "../../json-text.ts";
import { textOf } from "../../utf8-text.ts";
import type { Product } from "../catalog/product-schema.ts";
import { parseProductsBody } from "../catalog/validate-products.ts";

/** A POST /products body as validated: its report, the products the task holds, and the task's payload. */
export interface AcceptedBulk {
  report: ValidationReport;
  accepted: number;
  /** The accepted products as a JSON array, UTF-8. */
  payload: Uint8Array;
}

const utf8 = new TextEncoder();

/**
 * Validates a POST /products body (validate-products.ts; an InvalidJsonError or ValidationError when nothing of it
 * can be accepted). The payload is the body exactly as sent when validation dropped and refused nothing, rather
 * than the products serialised again (about a tenth of the server's time per product in a bulk): an array body's
 * own bytes unless they were not valid UTF-8 (then as decoded, U+FFFD in place of the bad sequences, as
 * validated); a single product made an array.
 */
export function acceptBulk(body: Uint8Array): { accepted: AcceptedBulk; products: Product[] } {
  const text = textOf(body);
  const value = parseJsonText(text);
  const { products, ...report } = parseProductsBody(value);
  let payload: Uint8Array;
  if (report.warnings !== 0 || report.rejectedCount !== 0) payload = utf8.encode(JSON.stringify(products));
  else if (!Array.isArray(value)) payload = utf8.encode(`[${text}]`);
  else payload = text.includes("\uFFFD") ? utf8.encode(text) : body;
  return { accepted: { report, accepted: products.length, payload }, products };
}
