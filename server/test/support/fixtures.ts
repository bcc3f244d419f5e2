import type { Product } from "../../src/modules/catalog/product-schema.ts";
import type { IndexingService } from "../../src/modules/indexing/indexing-service.ts";

/** A small hand-written product for tests that need specific values; catalog-scale tests use the real data. */
export function product(id: string, overrides: Partial<Product> = {}): Product {
  return {
    id,
    name: `Test product ${id}`,
    brand: "Roadster",
    categories: ["Apparel", "Topwear", "Shirts"],
    gender: "Men",
    ageGroup: "Adults",
    variations: [{ id: `${id}-navy`, name: "Navy Blue" }],
    skus: [{ variationId: `${id}-navy`, size: "M", price: 999, availability: "InStock", inventoryQuantity: 4 }],
    tags: ["season:summer"],
    ...overrides,
  };
}

/**
 * A man's summer casual piece in one colour, one size in stock: what the look composer needs to place it (a kind
 * from its categories, gender, age group, season and occasion tags, a price level).
 */
export function wearable(id: string, categories: string[], colour: string, price: number, extra: Partial<Product> = {}): Product {
  return product(id, {
    name: `${id} ${colour}`,
    gender: "Men",
    ageGroup: "Adults",
    categories,
    tags: ["season:summer", "usage:casual"],
    variations: [{ id: `${id}-v`, name: colour }],
    skus: [{ variationId: `${id}-v`, size: "M", price, availability: "InStock", inventoryQuantity: 3 }],
    ...extra,
  });
}

/** Products acknowledged as POST /products acknowledges a body of them (validated, then a task): the task's id. */
export async function enqueueProducts(indexing: IndexingService, storeId: string, products: Product[]): Promise<string> {
  return (await indexing.accept(storeId, new TextEncoder().encode(JSON.stringify(products)))).taskId;
}

/**
 * A full batch of POST /tracking (500 Search events), as a script flooding the service sends it: 25 shoppers
 * (`<prefix>-<batch>-<n>`) searching 50 queries.
 */
export function searchEventBatch(prefix: string, batch: number): unknown[] {
  return Array.from({ length: 500 }, (_, j) => ({
    type: "Search",
    sessionId: `${prefix}-${batch}-${j % 25}`,
    data: { query: `flood ${j % 50}`, productIds: ["p1"], pageSize: 30, totalProducts: 1 },
  }));
}
