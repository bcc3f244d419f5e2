import type { RejectedProduct, ValidationReport } from "@storefront-search/contract";
import type { TSchema } from "@sinclair/typebox";
import type { ErrorDetail } from "../../errors.ts";
import { ValidationError } from "../../errors.ts";
import { compileCleaner, type Cleaner } from "../../schema-clean.ts";
import { isValid, schemaProblems } from "../../schema-check.ts";
import { MAX_PRODUCTS_PER_REQUEST, PopularityData, Product } from "./product-schema.ts";

/*
 * The body of POST /products: one Product or a non-empty array of them. Every item is cleaned (see
 * schema-clean.ts) and checked before the request is acknowledged, so a task never fails for a reason the
 * caller could have been told at once. In an array, the valid products are accepted and the invalid ones
 * reported; a request with no valid product, or one invalid object, is a 400.
 */

/** Listed rejected products, and problems per product: the report (the contract's ValidationReport) is sent back and stored on the task. */
export const MAX_REJECTED_LISTED = 100;
const MAX_PROBLEMS_PER_PRODUCT = 5;
/** Problems in a 400's details. */
const MAX_ERROR_DETAILS = 20;

export interface ProductsBatch extends ValidationReport {
  products: Product[];
}

const cleanFields = compileCleaner(Product)!;
const popularityRules: Record<string, { schema: TSchema; clean: Cleaner }> = Object.fromEntries(
  Object.entries(PopularityData).map(([type, schema]) => [type, { schema, clean: compileCleaner(schema)! }]),
);

const isRecordValue = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Popularity.data is cleaned and checked against the schema its `type` names: the Product schema's union of
 * the three accepts any of their shapes, and its error ("expected union value") says nothing useful.
 */
function popularityData(product: unknown): { schema: TSchema; clean: Cleaner; data: unknown } | null {
  const p = isRecordValue(product) ? product.popularity : undefined;
  if (!isRecordValue(p) || typeof p.type !== "string" || !Object.hasOwn(PopularityData, p.type)) return null;
  return { ...popularityRules[p.type]!, data: p.data };
}

function clean(item: unknown): number {
  const dropped = cleanFields(item);
  const popularity = popularityData(item);
  return popularity ? dropped + popularity.clean(popularity.data) : dropped;
}

function isValidProduct(item: unknown): boolean {
  if (!isValid(Product, item)) return false;
  const popularity = popularityData(item);
  return !popularity || isValid(popularity.schema, popularity.data);
}

/** The problems of an item isValidProduct refused: at least one, at most `max`. */
function productProblems(item: unknown, path: string, max: number): ErrorDetail[] {
  const popularity = popularityData(item);
  const dataPath = `${path}.popularity.data`;
  const problems = popularity
    ? [
        ...schemaProblems(Product, item, path, max).filter((p) => p.path !== dataPath),
        ...schemaProblems(popularity.schema, popularity.data, dataPath, max),
      ]
    : schemaProblems(Product, item, path, max);
  return problems.length ? problems.slice(0, max) : [{ path, problem: "is not a valid product" }];
}

function usableId(item: unknown): string | undefined {
  const id = isRecordValue(item) ? item.id : undefined;
  return isValid(Product.properties.id, id) ? (id as string) : undefined;
}

function rejection(item: unknown, index: number): RejectedProduct {
  const [first, ...others] = productProblems(item, `body[${index}]`, MAX_PROBLEMS_PER_PRODUCT);
  const productId = usableId(item);
  return {
    index,
    ...(productId === undefined ? {} : { productId }),
    path: first!.path,
    message: first!.problem,
    ...(others.length ? { otherProblems: others.map((o) => ({ path: o.path, message: o.problem })) } : {}),
  };
}

function checkShape(body: unknown): void {
  if (Array.isArray(body)) {
    if (body.length === 0)
      throw new ValidationError("The product array is empty", [{ path: "body", problem: "must hold at least 1 product" }]);
    if (body.length > MAX_PRODUCTS_PER_REQUEST) {
      throw new ValidationError(`At most ${MAX_PRODUCTS_PER_REQUEST} products per request`, [
        { path: "body", problem: `has ${body.length} items; split it into several requests` },
      ]);
    }
  } else if (body === null || typeof body !== "object") {
    throw new ValidationError("The body must be a Product object or an array of them", [
      { path: "body", problem: "must be an object or an array" },
    ]);
  }
}

function parseOne(body: unknown): ProductsBatch {
  const warnings = clean(body);
  if (isValidProduct(body)) return { products: [body as Product], warnings, rejectedCount: 0, rejected: [] };
  const details = productProblems(body, "body", MAX_ERROR_DETAILS);
  throw new ValidationError(`Invalid product: ${details[0]!.path} ${details[0]!.problem}`, details);
}

function parseMany(body: unknown[]): ProductsBatch {
  const products: Product[] = [];
  const rejected: RejectedProduct[] = [];
  let rejectedCount = 0;
  let warnings = 0;
  body.forEach((item, index) => {
    const dropped = clean(item);
    if (isValidProduct(item)) {
      products.push(item as Product);
      warnings += dropped;
    } else {
      // Only listed rejections pay for their problems' details.
      if (rejectedCount < MAX_REJECTED_LISTED) rejected.push(rejection(item, index));
      rejectedCount++;
    }
  });
  if (products.length === 0) {
    const details = rejected
      .flatMap((r) => [r, ...(r.otherProblems ?? [])])
      .slice(0, MAX_ERROR_DETAILS)
      .map((p) => ({ path: p.path, problem: p.message }));
    throw new ValidationError(`No valid product in the request: ${details[0]!.path} ${details[0]!.problem}`, details);
  }
  return { products, warnings, rejectedCount, rejected };
}

export function parseProductsBody(body: unknown): ProductsBatch {
  checkShape(body);
  return Array.isArray(body) ? parseMany(body) : parseOne(body);
}
