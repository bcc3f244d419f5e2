import { afterAll, beforeAll, expect, test } from "bun:test";
import { product } from "./support/fixtures.ts";
import { eventually, indexProducts } from "./support/search-client.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

/*
 * /health says how far product enrichment is, per stage, so that an operator (and `npm start`'s printout) can tell
 * why a freshly fed service is busy and when it is done.
 */

interface Health {
  status: string;
  enrichment: { text: { done: number; total: number }; image: { done: number; total: number } };
}

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.stop());

const health = async () => (await (await fetch(s.url + "/health")).json()) as Health;

test("before any product, every stage is 0 of 0; after a bulk, the text stage counts every product until it is done", async () => {
  expect((await health()).enrichment).toEqual({ text: { done: 0, total: 0 }, image: { done: 0, total: 0 } });
  // No media: the text stage is each product's last.
  await indexProducts(
    s,
    ["a", "b", "c"].map((id) => product(id)),
  );
  const seen: Health["enrichment"][] = [];
  const finished = await eventually(async () => {
    const { enrichment } = await health();
    seen.push(enrichment);
    return enrichment.text.done === 3;
  }, 30_000);
  expect(finished).toBe(true);
  expect(seen.at(-1)).toEqual({ text: { done: 3, total: 3 }, image: { done: 0, total: 0 } });
  // A reading may be up to 2 s old (health checks polled often cost one count each interval), never beyond the truth.
  expect(seen.every((p) => p.text.done <= p.text.total && p.text.total <= 3)).toBe(true);
});
