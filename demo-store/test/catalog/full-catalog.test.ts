/* Converts the whole demo catalog once: reports its size and conversion time, checks every product. */

import { describe, expect, test } from "bun:test";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { Product } from "../../../server/src/modules/catalog/product-schema.ts";
import { loadDemoCatalogWithStats } from "../../src/catalog/index.ts";
import { BASE_URL, DATA_DIR } from "./support.ts";

describe("full demo catalog", () => {
  // Conversion time is printed for the record; speed is a benchmark matter, not a test assertion.
  test("converts every source; all products valid and unique", () => {
    const { products, stats, elapsedMs } = loadDemoCatalogWithStats({ dataDir: DATA_DIR, baseUrl: BASE_URL });
    const perSource = Object.fromEntries(
      Object.entries(stats).map(([source, s]) => [source, { products: s!.included, skipped: s!.skipped }]),
    );
    console.log(`full demo catalog: ${products.length} products in ${Math.round(elapsedMs)} ms`, JSON.stringify(perSource));
    expect(products.length).toBe(44441 + 12491 + 1002);
    expect(stats["fashion-product-images"]!.skipped).toEqual({ "placeholder name": 5 });

    // Compiled validator: Value.Check over ~58k products would dominate the test's run time.
    const check = TypeCompiler.Compile(Product);
    const invalid = products.filter((p): boolean => !check.Check(p)).map((p) => p.id);
    expect(invalid).toEqual([]);
    expect(new Set(products.map((p) => p.id)).size).toBe(products.length);
  }, 60_000);
});
