import type { Database } from "bun:sqlite";
import { TOKENIZER_VERSION } from "./field-tokens.ts";
import type { DocumentTokens } from "./store-index.ts";
import type { TextIndex } from "./text-index.ts";

/*
 * A store's tokens, kept in its file beside its documents: each document's token sequence (ids of the store's
 * TextIndex) and the token of each id. Tokenizing every document again was most of a store's load. Ids are
 * the TextIndex's own, written in id order as new tokens get numbered; all of it is reused only under the
 * tokenizer fingerprint and the format it was made with, and made again from the documents otherwise.
 */

/** Raise when what is stored changes meaning (the sequence layout, the surfaces' encoding). */
const FORMAT = 1;
const MADE_BY = `${FORMAT}:${TOKENIZER_VERSION}`;

export const TOKENS_SCHEMA = `
  CREATE TABLE IF NOT EXISTS token_names (id INTEGER PRIMARY KEY, token TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

/** A sequence as stored: its bytes. */
export const sequenceBlob = (sequence: Uint32Array): Uint8Array =>
  new Uint8Array(sequence.buffer, sequence.byteOffset, sequence.byteLength);

export class StoredTokens {
  /** Tokens numbered as kept when the store loaded: a kept sequence may name only these. */
  private loaded = 0;
  private readonly insert;
  private readonly kept;

  constructor(
    private readonly db: Database,
    private readonly text: TextIndex,
  ) {
    db.exec(TOKENS_SCHEMA);
    // Files from before tokens were kept: their documents get tokens as the store loads.
    const columns = (db.query("PRAGMA table_info(documents)").all() as { name: string }[]).map((c) => c.name);
    if (!columns.includes("tokens"))
      db.exec("ALTER TABLE documents ADD COLUMN tokens BLOB; ALTER TABLE documents ADD COLUMN surfaces TEXT");
    this.insert = db.query("INSERT INTO token_names (id, token) VALUES (?, ?)");
    this.kept = db.query("SELECT coalesce(max(id) + 1, 0) AS n FROM token_names");
  }

  /**
   * Before a store's documents load into an empty index: numbers the kept tokens as they were, when this tokenizer
   * made them; otherwise forgets every kept token, so that each document is tokenized again (and kept) as it loads.
   */
  load(): void {
    const madeBy = this.db.query("SELECT value FROM meta WHERE key = 'tokens'").get() as { value: string } | null;
    if (madeBy?.value === MADE_BY) {
      const names = this.db.query("SELECT id, token FROM token_names ORDER BY id").all() as { id: number; token: string }[];
      if (names.every(({ id, token }) => this.text.intern(token) === id)) {
        this.loaded = names.length;
        return;
      }
      // Not numbered in order (never written so): tokens numbered meanwhile are kept again by the next write.
    }
    this.db.transaction(() => {
      this.db.exec("DELETE FROM token_names; UPDATE documents SET tokens = NULL, surfaces = NULL WHERE tokens IS NOT NULL");
      this.db.query("INSERT OR REPLACE INTO meta (key, value) VALUES ('tokens', ?)").run(MADE_BY);
    })();
  }

  /** A document's kept tokens, or null when it has none (or they name a token this store never numbered). */
  of(row: { tokens: Uint8Array | null; surfaces: string | null }): DocumentTokens | null {
    const blob = row.tokens;
    if (!blob || blob.byteLength % 4 !== 0) return null;
    const sequence =
      blob.byteOffset % 4 === 0 ? new Uint32Array(blob.buffer, blob.byteOffset, blob.byteLength / 4) : new Uint32Array(blob.slice().buffer);
    const known = this.loaded;
    for (let i = 0; i < sequence.length; i++) if (sequence[i]! >= known && sequence[i] !== 0xffffffff) return null;
    return { sequence, surfaces: row.surfaces ?? "" };
  }

  /**
   * Inside the transaction that writes documents: keeps the tokens numbered since the last write (read from the
   * file, so a write that rolled back leaves no gap).
   */
  keepNew(): void {
    for (let id = (this.kept.get() as { n: number }).n; id < this.text.size; id++) this.insert.run(id, this.text.name(id));
  }
}
