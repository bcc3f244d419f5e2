import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { TOKENS_VERSION } from "../src/engine/text/normalize.ts";
import { describeEngineConformance } from "../src/engine/conformance.ts";
import { SqliteEngine } from "../src/engine/sqlite/sqlite-engine.ts";
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

test("documents indexed with an older tokenizer are re-tokenized when their store opens", async () => {
  const dataDir = tempDir("sfs-engine-tokens-");
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
    // As an older version left it: FTS rows of other tokens ("kurtis" did not fold) and no tokens version.
    const db = new Database(join(dataDir, "engine", "s.db"));
    db.exec("INSERT INTO documents_fts (documents_fts) VALUES ('delete-all')");
    db.exec("INSERT INTO documents_fts (rowid, name) VALUES (1, 'blue kurtis')");
    db.exec("PRAGMA user_version = 0");
    db.close();
    const reopened = new SqliteEngine({ dataDir, synchronous: "NORMAL" });
    const request = { matching: { typos: false, prefixLast: false }, filters: [], facets: [], rangeFacets: [], sort: [], offset: 0, limit: 10 };
    expect((await reopened.search("s", { ...request, text: "kurti" })).hits.map((h) => h.id)).toEqual(["kurti-1"]);
    expect((await reopened.search("s", { ...request, text: "kurtis" })).hits.map((h) => h.id)).toEqual(["kurti-1"]);
    await reopened.close();
    const after = new Database(join(dataDir, "engine", "s.db"));
    expect((after.query("PRAGMA user_version").get() as { user_version: number }).user_version).toBe(TOKENS_VERSION);
    after.close();
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
