import { expect, test } from "bun:test";
import { openServiceDatabase } from "../src/platform/sqlite/connection.ts";
import { SqliteStoresRepo } from "../src/modules/stores/storage/stores.sqlite.ts";
import { SqliteTrendInputsRepo } from "../src/modules/enrichment/storage/trend-inputs.sqlite.ts";
import { textAttributes } from "../src/modules/enrichment/text-attributes.ts";
import { TrendingValues } from "../src/modules/enrichment/trending-values.ts";
import { tempDir } from "./support/test-server.ts";

/* Trending values from the report aggregates of two 7-day periods, in a real database. */

const NOW = Date.parse("2026-05-20T12:00:00Z");
const day = (daysAgo: number) => new Date(NOW - daysAgo * 86_400_000).toISOString().slice(0, 10);

test("a value whose share of searches rose by a quarter is trending; a steady or rare one is not", async () => {
  const db = openServiceDatabase(tempDir(), { synchronous: "NORMAL" });
  await new SqliteStoresRepo(db).create("s", 1);
  const searches = db.query(
    "INSERT INTO report_queries (store_id, day, query, region, language, currency, searches) VALUES ('s', ?, ?, '', '', '', ?)",
  );
  // Before: linen 5 of 100, red 20 of 100. Recent: linen 20 of 100 (rising), red 20 of 100 (steady), silk 3 (rare, new).
  searches.run(day(10), "linen shirt", 5);
  searches.run(day(10), "red dress", 20);
  searches.run(day(10), "jeans", 75);
  searches.run(day(2), "linen shirt", 20);
  searches.run(day(2), "red dress", 20);
  searches.run(day(2), "silk scarf", 3);
  searches.run(day(2), "jeans", 57);
  const trending = await new TrendingValues(new SqliteTrendInputsRepo(db), textAttributes, () => NOW).of("s");
  expect(trending("material", "linen")).toBe(true);
  expect(trending("colour", "red")).toBe(false);
  expect(trending("material", "silk")).toBe(false);
  db.close();
});
