import { expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { SqliteEngine } from "../src/engine/sqlite/sqlite-engine.ts";
import { toEngineDocument } from "../src/modules/catalog/engine-document.ts";
import { demoProducts } from "./support/demo-products.ts";
import { tempDir } from "./support/test-server.ts";

const RANKING = { ratingPrior: { mean: 0.8, weight: 3 }, purchases: 0 };

test("the embedded engine's memory report covers every structure and grows with the catalog it holds", async () => {
  const dataDir = tempDir("sfs-memory-report-");
  const engine = new SqliteEngine({ dataDir, synchronous: "NORMAL" });
  try {
    const products = demoProducts(600);
    await engine.upsert(
      "s",
      products.slice(0, 300).map((p) => toEngineDocument(p, 1, RANKING)),
    );
    const half = await engine.memoryReport("s");
    await engine.upsert(
      "s",
      products.slice(300).map((p) => toEngineDocument(p, 1, RANKING)),
    );
    const whole = await engine.memoryReport("s");
    expect(Object.keys(whole).sort()).toEqual(Object.keys(half).sort());
    for (const [name, bytes] of Object.entries(whole)) expect(bytes, name).toBeGreaterThan(0);
    // Structures held per document grow with the documents (the arrays' room grows in steps, so at least not less).
    for (const name of ["text index: posting lists", "text index: token sequences", "ids, identifiers, sort text"])
      expect(whole[name]!, name).toBeGreaterThan(half[name]!);
    for (const name of Object.keys(whole)) expect(whole[name]!, name).toBeGreaterThanOrEqual(half[name]!);
  } finally {
    await engine.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
