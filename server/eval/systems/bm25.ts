import { Database } from "bun:sqlite";
import type { Product } from "../../src/modules/catalog/product-schema.ts";
import { words } from "../labels.ts";
import { cheapestOf, PEER_FIELDS, peerDocument, priceOf, type SearchSystem } from "./system.ts";

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

  private readonly prices = new Map<string, number>();

  async index(products: readonly Product[]): Promise<void> {
    for (const p of products) this.prices.set(p.id, priceOf(p));
    this.db.run(
      `CREATE VIRTUAL TABLE docs USING fts5(id UNINDEXED, ${PEER_FIELDS.join(", ")}, tokenize = 'unicode61 remove_diacritics 2')`,
    );
    const insert = this.db.prepare(`INSERT INTO docs (id, ${PEER_FIELDS.join(", ")}) VALUES (?, ?, ?, ?, ?)`);
    this.db.transaction(() => {
      for (const p of products) {
        const d = peerDocument(p);
        insert.run(d.id, d.name, d.brand, d.categories, d.description);
      }
    })();
  }

  async search(query: string, k: number): Promise<string[]> {
    return this.matching(query, k);
  }

  async matchSet(query: string): Promise<string[]> {
    return this.matching(query, -1);
  }

  async cheapest(query: string, k: number): Promise<string[]> {
    return cheapestOf(await this.matchSet(query), this.prices, k);
  }

  /** Matching ids by bm25, at most `limit` (-1: all). */
  private matching(query: string, limit: number): string[] {
    const tokens = words(query).split(" ").filter(Boolean);
    if (tokens.length === 0) return [];
    const match = tokens.map((t) => `"${t}"`).join(this.combine === "AND" ? " " : " OR ");
    const rows = this.db.query("SELECT id FROM docs WHERE docs MATCH ? ORDER BY bm25(docs) LIMIT ?").all(match, limit) as Array<{
      id: string;
    }>;
    return rows.map((r) => r.id);
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
