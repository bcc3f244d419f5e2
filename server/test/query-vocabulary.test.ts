import { afterAll, beforeAll, expect, test } from "bun:test";
import { product } from "./support/fixtures.ts";
import { getJson, indexProducts } from "./support/search-client.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

/*
 * Query understanding reads the store's vocabulary (product types, colours, brands). A vocabulary built while a
 * store's first bulk was being indexed must not keep serving once the store has grown past it: the pages of one
 * search would be read with two vocabularies when it is swapped in the background.
 */

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
}, 30_000);
afterAll(() => s?.stop());

const roles = async (query: string) => {
  const { body } = await getJson<{ explain: { interpretation: { text: string; role: string }[] } }>(
    s,
    "/search",
    { query, explain: true },
    "admin",
  );
  return body.explain.interpretation.map((t) => [t.text, t.role]);
};

test("a vocabulary built from a fraction of the store is rebuilt before the next search, not 5 s later", async () => {
  await indexProducts(
    s,
    Array.from({ length: 5 }, (_, i) => product(`shirt-${i}`, { name: `Cotton Shirt ${i}` })),
  );
  expect(await roles("kurta")).toEqual([["kurta", "word"]]);
  await indexProducts(
    s,
    Array.from({ length: 20 }, (_, i) => product(`kurta-${i}`, { name: `Silk Kurta ${i}`, categories: ["Apparel", "Topwear", "Kurtas"] })),
  );
  expect(await roles("kurta")).toEqual([["kurta", "type"]]);
});
