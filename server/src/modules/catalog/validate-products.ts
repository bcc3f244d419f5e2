import type { ErrorDetail } from "../../errors.ts";
import { ValidationError } from "../../errors.ts";
import { schemaProblems } from "../../schema-check.ts";
import { MAX_PRODUCTS_PER_REQUEST, PopularityData, Product } from "./product-schema.ts";

/** Popularity.data is checked against the schema its `type` names (a plain union would accept any shape). */
function popularityProblems(product: Product, path: string): ErrorDetail[] {
  const p = product.popularity;
  if (!p) return [];
  return schemaProblems(PopularityData[p.type], p.data, `${path}.popularity.data`);
}

function productProblems(value: unknown, path: string): ErrorDetail[] {
  const problems = schemaProblems(Product, value, path);
  return problems.length ? problems : popularityProblems(value as Product, path);
}

/**
 * The body of POST /products: one Product or a non-empty array of them. Every item is checked before the
 * request is acknowledged, so a task never fails for a reason the caller could have been told at once.
 */
export function parseProductsBody(body: unknown): Product[] {
  const items = Array.isArray(body) ? body : [body];
  if (Array.isArray(body)) {
    if (body.length === 0) throw new ValidationError("The product array is empty", [{ path: "body", problem: "must hold at least 1 product" }]);
    if (body.length > MAX_PRODUCTS_PER_REQUEST) {
      throw new ValidationError(`At most ${MAX_PRODUCTS_PER_REQUEST} products per request`, [
        { path: "body", problem: `has ${body.length} items; split it into several requests` },
      ]);
    }
  } else if (body === null || typeof body !== "object") {
    throw new ValidationError("The body must be a Product object or an array of them", [{ path: "body", problem: "must be an object or an array" }]);
  }
  const details: ErrorDetail[] = [];
  items.forEach((item, i) => {
    if (details.length < 20) details.push(...productProblems(item, Array.isArray(body) ? `body[${i}]` : "body"));
  });
  if (details.length) {
    const first = details[0]!;
    throw new ValidationError(`Invalid product: ${first.path} ${first.problem}`, details.slice(0, 20));
  }
  return items as Product[];
}
