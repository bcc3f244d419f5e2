import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { existsSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { describeEngineConformance } from "../src/engine/conformance.ts";
import { SqliteEngine } from "../src/engine/sqlite/sqlite-engine.ts";
import { prepareDocument, sqlitePreparer } from "../src/engine/sqlite/sqlite-preparer.ts";
import type { EngineSearchRequest } from "../src/engine/types.ts";
import { toEngineDocument } from "../src/modules/catalog/engine-document.ts";
import { textOf } from "../src/utf8-text.ts";
import { demoProducts } from "./support/demo-products.ts";
import { tempDir } from "./support/test-server.ts";

describeEngineConformance("embedded SQLite", async () => {
  const dataDir = tempDir("sfs-engine-");
  const engine = new SqliteEngine({ dataDir, synchronous: "NORMAL" });
  return {
    engine,
    reopen: async () => new SqliteEngine({ dataDir, synchronous: "NORMAL" }),
    cleanup: async () => {
      await engine.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
});

test("documents prepared on the indexing thread decode to what the engine makes of them in place, for real catalog text", () => {
  const docs = demoProducts(300).map((product) => toEngineDocument(product, 0, { ratingPrior: { mean: 0.8, weight: 3 }, purchases: 0 }));
  docs[0]!.text.name = "T-shirt d’été / Café-crème 100% coton";
  // 50,000 characters of up to three UTF-8 bytes each: past the room first made for the texts several times over.
  docs[1]!.text.description = "Écharpe en laine – 羊毛围巾 ".repeat(2_500).slice(0, 50_000);
  const decoded = sqlitePreparer.decode(sqlitePreparer.encode(docs, docs.length));
  expect(decoded).toHaveLength(docs.length);
  decoded.forEach((prepared, i) => {
    const inPlace = prepareDocument(docs[i]!);
    expect([prepared.id, prepared.version, textOf(prepared.json), prepared.held, prepared.text]).toEqual([
      inPlace.id,
      inPlace.version,
      inPlace.json as string,
      inPlace.held,
      inPlace.text,
    ]);
  });
  expect(JSON.parse(textOf(decoded[1]!.json))).not.toHaveProperty("version");
});

test("a store file written with the FTS table of earlier versions opens without it and still matches its documents", async () => {
  const dataDir = tempDir("sfs-engine-fts-");
  try {
    const doc = {
      id: "kurti-1",
      version: 1,
      text: { name: "Blue Kurtis", brand: "", categories: [], features: [], tags: [], description: "", identifiers: ["kurti-1"] },
      facets: {},
      numbers: {},
      sortText: {},
    };
    const engine = new SqliteEngine({ dataDir, synchronous: "NORMAL" });
    await engine.upsert("s", [doc]);
    await engine.close();
    // As an earlier version left it: an FTS5 table of tokens from an older tokenizer ("kurtis" did not fold).
    const file = join(dataDir, "engine", "s.db");
    const db = new Database(file);
    db.exec("CREATE VIRTUAL TABLE documents_fts USING fts5(name, content = '', contentless_delete = 1)");
    db.exec("INSERT INTO documents_fts (rowid, name) VALUES (1, 'blue kurtis')");
    db.close();
    const reopened = new SqliteEngine({ dataDir, synchronous: "NORMAL" });
    const request = {
      matching: { typos: false, prefixLast: false },
      filters: [],
      facets: [],
      rangeFacets: [],
      sort: [],
      offset: 0,
      limit: 10,
    };
    expect((await reopened.search("s", { ...request, text: "kurti" })).hits.map((h) => h.id)).toEqual(["kurti-1"]);
    expect((await reopened.search("s", { ...request, text: "kurtis" })).hits.map((h) => h.id)).toEqual(["kurti-1"]);
    await reopened.close();
    const after = new Database(file, { readonly: true });
    expect(after.query("SELECT name FROM sqlite_master WHERE name LIKE 'documents_fts%'").all()).toEqual([]);
    after.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("documents' writes are copied into the store's file before its log reaches an automatic checkpoint; a dropped store's files go and its id starts empty", async () => {
  const dataDir = tempDir("sfs-engine-checkpoints-");
  const engine = new SqliteEngine({ dataDir, synchronous: "NORMAL" });
  try {
    const docs = demoProducts(300).map((product) => toEngineDocument(product, 0, { ratingPrior: { mean: 0.8, weight: 3 }, purchases: 0 }));
    const file = join(dataDir, "engine", "s.db");
    await engine.upsert("s", docs.slice(0, 1));
    const [emptySize, logPages] = [statSync(file).size, statSync(`${file}-wal`).size / 16_384];
    await engine.upsert("s", docs.slice(1));
    // A few hundred documents fill far fewer log pages than the connection's automatic checkpoint waits for.
    expect(statSync(`${file}-wal`).size / 16_384 - logPages).toBeLessThan(1000);
    for (const deadline = Date.now() + 10_000; statSync(file).size <= emptySize && Date.now() < deadline; ) await Bun.sleep(20);
    expect(statSync(file).size).toBeGreaterThan(emptySize);

    await engine.dropStore("s");
    expect(["", "-wal", "-shm"].filter((suffix) => existsSync(`${file}${suffix}`))).toEqual([]);
    await engine.upsert("s", docs.slice(0, 2));
    expect(await engine.count("s")).toBe(2);
  } finally {
    await engine.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("a write that need not wait for the disk is kept by the synced write after it, through a reopen", async () => {
  const dataDir = tempDir("sfs-engine-unsynced-");
  try {
    const docs = demoProducts(40).map((product) => toEngineDocument(product, 0, { ratingPrior: { mean: 0.8, weight: 3 }, purchases: 0 }));
    const prepared = sqlitePreparer.decode(sqlitePreparer.encode(docs, docs.length));
    const engine = new SqliteEngine({ dataDir, synchronous: "FULL" });
    await engine.upsertPrepared("s", prepared.slice(0, 30), { synced: false });
    await engine.upsertPrepared("s", prepared.slice(30), { synced: true });
    await engine.close();
    const reopened = new SqliteEngine({ dataDir, synchronous: "FULL" });
    expect(await reopened.count("s")).toBe(40);
    expect(await reopened.versions("s", [docs[0]!.id, docs[39]!.id])).toEqual(
      new Map([
        [docs[0]!.id, 0],
        [docs[39]!.id, 0],
      ]),
    );
    await reopened.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("a word first indexed singular is corrected from its plural written form once that appears", async () => {
  const dataDir = tempDir("sfs-engine-plurals-");
  const engine = new SqliteEngine({ dataDir, synchronous: "NORMAL" });
  try {
    const doc = (id: string, name: string) => ({
      id,
      version: 1,
      text: { name, brand: "", categories: [], features: [], tags: [], description: "", identifiers: [id] },
      facets: {},
      numbers: {},
      sortText: {},
    });
    await engine.upsert("s", [doc("one", "White Sneaker")]);
    // Seven letters, two edits from "sneakers" but three from "sneaker": no look-alike yet.
    expect((await engine.corrections("s", "snikers"))[0]!.candidates).toEqual([]);
    await engine.upsert("s", [doc("two", "Black Sneakers")]);
    expect((await engine.corrections("s", "snikers"))[0]!.candidates.map((c) => c.word)).toEqual(["sneaker"]);
  } finally {
    await engine.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("a filter remembered for broad searches follows documents that change, come and go", async () => {
  const dataDir = tempDir("sfs-engine-masks-");
  const engine = new SqliteEngine({ dataDir, synchronous: "NORMAL" });
  try {
    const doc = (id: string, color: string, version = 1) => ({
      id,
      version,
      text: { name: `Shirt ${id}`, brand: "", categories: [], features: [], tags: [], description: "", identifiers: [id] },
      facets: { color: [color] },
      numbers: {},
      sortText: {},
    });
    const red = { kind: "terms" as const, key: "color", values: ["red"] };
    const request: EngineSearchRequest = {
      text: "",
      matching: { typos: false, prefixLast: false },
      filters: [red],
      facets: [],
      rangeFacets: [],
      sort: [],
      offset: 0,
      limit: 10,
    };
    const preferRed: EngineSearchRequest = { ...request, filters: [], sort: [{ kind: "prefer", filters: [red] }] };
    const ids = async (r: EngineSearchRequest) => (await engine.search("s", r)).hits.map((h) => h.id);
    await engine.upsert("s", [doc("a", "red"), doc("b", "blue"), doc("c", "red")]);
    expect(await ids(request)).toEqual(["a", "c"]);
    expect(await ids(preferRed)).toEqual(["a", "c", "b"]);
    await engine.upsert("s", [doc("a", "blue", 2), doc("d", "red")]);
    expect(await ids(request)).toEqual(["c", "d"]);
    expect(await ids(preferRed)).toEqual(["c", "d", "a", "b"]);
    await engine.remove("s", ["c"]);
    expect(await ids(request)).toEqual(["d"]);
  } finally {
    await engine.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("a query equal to an identifier finds every document holding it, as documents change, share it and go", async () => {
  const dataDir = tempDir("sfs-engine-identifiers-");
  const engine = new SqliteEngine({ dataDir, synchronous: "NORMAL" });
  try {
    const doc = (id: string, related: string[], version = 1) => ({
      id,
      version,
      text: { name: `Lamp ${id}`, brand: "", categories: [], features: [], tags: [], description: "", identifiers: [id, ...related] },
      facets: {},
      numbers: {},
      sortText: {},
    });
    const request: EngineSearchRequest = {
      text: "",
      matching: { typos: false, prefixLast: false },
      filters: [],
      facets: [],
      rangeFacets: [],
      sort: [],
      offset: 0,
      limit: 10,
    };
    const ids = async (text: string) => (await engine.search("s", { ...request, text })).hits.map((h) => h.id).sort();
    await engine.upsert("s", [doc("a-1", ["SKU-9"]), doc("b-2", ["sku-9"]), doc("c-3", [])]);
    expect(await ids("sku-9")).toEqual(["a-1", "b-2"]);
    expect(await ids("A-1")).toEqual(["a-1"]);
    await engine.upsert("s", [doc("b-2", [], 2)]);
    expect(await ids("SKU-9")).toEqual(["a-1"]);
    await engine.remove("s", ["a-1"]);
    expect(await ids("sku-9")).toEqual([]);
    expect(await ids("a-1")).toEqual([]);
    await engine.upsert("s", [doc("c-3", ["sku-9"], 2), doc("d-4", ["SKU-9"])]);
    expect(await ids("sku-9")).toEqual(["c-3", "d-4"]);
  } finally {
    await engine.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("a store opens from the tokens it kept; tokens another tokenizer made, or a file from before tokens were kept, are made again as it loads", async () => {
  const dataDir = tempDir("sfs-engine-tokens-");
  const file = join(dataDir, "engine", "s.db");
  const doc = (id: string, name: string) => ({
    id,
    version: 1,
    text: { name, brand: "", categories: [], features: [], tags: [], description: "", identifiers: [id] },
    facets: { color: ["Blue"] },
    numbers: {},
    sortText: {},
  });
  const request = {
    matching: { typos: true, prefixLast: false },
    filters: [],
    facets: [],
    rangeFacets: [],
    sort: [],
    offset: 0,
    limit: 10,
  };
  const found = async (text: string) => {
    const engine = new SqliteEngine({ dataDir, synchronous: "NORMAL" });
    try {
      return (await engine.search("s", { ...request, text })).hits.map((h) => h.id);
    } finally {
      await engine.close();
    }
  };
  const keptTokens = () => {
    const db = new Database(file, { readonly: true });
    try {
      return (db.query("SELECT count(*) AS n FROM documents WHERE tokens IS NOT NULL").get() as { n: number }).n;
    } finally {
      db.close();
    }
  };
  try {
    const engine = new SqliteEngine({ dataDir, synchronous: "NORMAL" });
    await engine.upsert("s", [doc("kurti-1", "Blue Kurtis"), doc("jeans-1", "Slim Jeans")]);
    await engine.close();
    expect(keptTokens()).toBe(2);
    expect(await found("kurti")).toEqual(["kurti-1"]);
    expect(await found("jeans slim")).toEqual(["jeans-1"]);

    // Kept by another tokenizer: its words are not ours, and must not be used.
    let db = new Database(file);
    db.exec("UPDATE meta SET value = 'another tokenizer' WHERE key = 'tokens'; UPDATE token_names SET token = 'zzz'");
    db.close();
    expect(await found("kurti")).toEqual(["kurti-1"]);
    expect(await found("zzz")).toEqual([]);
    expect(keptTokens()).toBe(2);

    // As a file from before tokens were kept: no such columns or tables.
    db = new Database(file);
    db.exec(
      "DROP TABLE token_names; DROP TABLE meta; ALTER TABLE documents DROP COLUMN tokens; ALTER TABLE documents DROP COLUMN surfaces",
    );
    db.close();
    expect(await found("jeans")).toEqual(["jeans-1"]);
    expect(keptTokens()).toBe(2);
    expect(await found("kurtis blue")).toEqual(["kurti-1"]);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
