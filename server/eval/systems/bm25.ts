import { Database } from "bun:sqlite";
import type { Product } from "../../src/modules/catalog/product-schema.ts";
import { words } from "../labels.ts";
import { PEER_FIELDS, peerDocument, type SearchSystem } from "./system.ts";

/*
 * Plain BM25: what a developer gets from SQLite alone. One in-memory FTS5 table over the peer fields with the
 * unicode61 tokenizer (diacritics removed), ranked by bm25() with equal column weights, no stemming, no typo
 * tolerance. Each query word is quoted (so no word is read as FTS5 syntax) and the words are ANDed or ORed.
 */
export class PlainBm25 implements SearchSystem {
  readonly name: string;
  readonly config: string;
  private readonly db = new Database(":memory:");

  constructor(private readonly combine: "AND" | "OR") {
    this.name = `bm25 ${combine}`;
    this.config = `SQLite FTS5 over ${PEER_FIELDS.join(", ")}; tokenize 'unicode61 remove_diacritics 2'; ORDER BY bm25(); words ${combine}ed`;
  }

  async index(products: readonly Product[]): Promise<void> {
    this.db.run(`CREATE VIRTUAL TABLE docs USING fts5(id UNINDEXED, ${PEER_FIELDS.join(", ")}, tokenize = 'unicode61 remove_diacritics 2')`);
    const insert = this.db.prepare(`INSERT INTO docs (id, ${PEER_FIELDS.join(", ")}) VALUES (?, ?, ?, ?, ?)`);
    this.db.transaction(() => {
      for (const p of products) {
        const d = peerDocument(p);
        insert.run(d.id, d.name, d.brand, d.categories, d.description);
      }
    })();
  }

  async search(query: string, k: number): Promise<string[]> {
    const tokens = words(query).split(" ").filter(Boolean);
    if (tokens.length === 0) return [];
    const match = tokens.map((t) => `"${t}"`).join(this.combine === "AND" ? " " : " OR ");
    const rows = this.db.query("SELECT id FROM docs WHERE docs MATCH ? ORDER BY bm25(docs) LIMIT ?").all(match, k) as Array<{ id: string }>;
    return rows.map((r) => r.id);
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
