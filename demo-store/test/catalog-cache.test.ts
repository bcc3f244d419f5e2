import { afterAll, describe, expect, test } from "bun:test";
import { appendFileSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../server/test/support/test-server.ts";
import { loadDemoCatalog } from "../src/catalog/index.ts";
import { bulkOf, CatalogCache, keepWhileReading, type Bulk } from "../src/catalog-cache.ts";
import { Conversion } from "../src/conversion.ts";
import { BASE_URL, DATA_DIR } from "./catalog/support.ts";

/*
 * The conversion on its worker thread gives exactly the converter's products, in bulks ready to send; the kept
 * copy reads back only whole and under its own fingerprint. (That a start with an unchanged catalog converts
 * nothing, and a changed one converts again, is in start.test.ts, on the real command.)
 */

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function freshCache(): CatalogCache {
  const dir = tempDir("sfs-cache-");
  dirs.push(dir);
  return new CatalogCache(join(dir, "demo-catalog"));
}

async function collect(bulks: AsyncIterable<Bulk>): Promise<Bulk[]> {
  const out: Bulk[] = [];
  for await (const b of bulks) out.push(b);
  return out;
}

const expected = loadDemoCatalog({ dataDir: DATA_DIR, baseUrl: BASE_URL, limit: 700 });

describe("conversion on a worker thread", () => {
  test("bulks of the requested sizes, together exactly the converter's products, each serialised as sent", async () => {
    const conversion = new Conversion({ dataDir: DATA_DIR, limit: 700 });
    const { total, bulks } = await conversion.build(`${BASE_URL}/`, { first: 100, rest: 250 });
    expect(total).toBe(700);
    const got = await collect(bulks);
    expect(got.map((b) => b.products.length)).toEqual([100, 250, 250, 100]);
    expect(got.flatMap((b) => b.products)).toEqual(expected);
    for (const b of got) expect(b.json).toBe(JSON.stringify(b.products));
    expect(conversion.finishedAt).toBeGreaterThan(0);
  }, 60_000);

  test("a conversion that cannot read its data fails with the reason", async () => {
    const conversion = new Conversion({ dataDir: "/nonexistent", limit: 10 });
    await expect(conversion.build(BASE_URL, { first: 5, rest: 5 })).rejects.toThrow(
      /demo catalog conversion failed: .*source file missing/,
    );
    conversion.stop();
  });
});

describe("catalog cache", () => {
  const bulks: Bulk[] = [expected.slice(0, 300), expected.slice(300)].map((products) =>
    bulkOf(JSON.stringify(products), products.length, products),
  );

  test("kept while read, read back whole under its fingerprint, older ones dropped", async () => {
    const cache = freshCache();
    expect(cache.isEmpty()).toBe(true);
    expect(cache.read("a".repeat(64))).toBeNull();
    await collect(keepWhileReading(fromArray(bulks), cache.writer("a".repeat(64), 700)));
    expect(cache.isEmpty()).toBe(false);
    const back = cache.read("a".repeat(64))!;
    expect(back.map((b) => b.json)).toEqual(bulks.map((b) => b.json));
    expect(back.flatMap((b) => b.products)).toEqual(expected);
    expect(cache.read("b".repeat(64))).toBeNull();
    // A second start trusts the header of a kept file, read alone, and reads the bulks later.
    expect(cache.products("a".repeat(64))).toBe(700);
    expect(cache.products("b".repeat(64))).toBeNull();

    await collect(keepWhileReading(fromArray(bulks.slice(0, 1)), cache.writer("b".repeat(64), 300)));
    expect(readdirSync(cache.dir)).toEqual([`${"b".repeat(64)}.jsonl`]);
  });

  test("nothing is kept when the bulks stop half way", async () => {
    const cache = freshCache();
    async function* failing(): AsyncGenerator<Bulk> {
      yield bulks[0]!;
      throw new Error("conversion died");
    }
    await expect(collect(keepWhileReading(failing(), cache.writer("c".repeat(64), 700)))).rejects.toThrow("conversion died");
    expect(cache.isEmpty()).toBe(true);
    expect(readdirSync(cache.dir)).toEqual([]);
  });

  test("a damaged or foreign file is not taken for the catalog", async () => {
    const cache = freshCache();
    const fp = "d".repeat(64);
    await collect(keepWhileReading(fromArray(bulks), cache.writer(fp, 700)));
    const file = cache.fileFor(fp);
    const whole = readFileSync(file, "utf8");
    const mtime = statSync(file).mtimeMs;
    expect(cache.read(fp)).not.toBeNull();
    expect(statSync(file).mtimeMs).toBe(mtime); // reading leaves it as it is

    writeFileSync(file, whole.slice(0, Math.floor(whole.length * 0.7))); // cut short
    expect(cache.read(fp)).toBeNull();
    writeFileSync(file, whole.split("\n").slice(0, 2).join("\n")); // a bulk missing
    expect(cache.read(fp)).toBeNull();
    writeFileSync(file, whole);
    appendFileSync(file, JSON.stringify(expected.slice(0, 1)) + "\n"); // more than its header says
    expect(cache.read(fp)).toBeNull();
    writeFileSync(cache.fileFor("e".repeat(64)), whole); // another fingerprint's content under this name
    expect(cache.read("e".repeat(64))).toBeNull();
    expect(cache.products("e".repeat(64))).toBeNull();
    writeFileSync(file, "not json\n");
    expect(cache.products(fp)).toBeNull();
    expect(existsSync(file)).toBe(true);
  });
});

async function* fromArray<T>(items: T[]): AsyncGenerator<T> {
  yield* items;
}
