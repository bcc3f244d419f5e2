import type { SynonymBody, SynonymSet } from "../synonym-schema.ts";
import { toSynonymSet, type SynonymRow, type SynonymsRepository } from "./synonyms-repository.ts";
import type { Sql } from "../../../platform/postgres/connection.ts";

/** Rows per INSERT: five parameters each, far below PostgreSQL's 65,535 per statement. */
const PUT_CHUNK = 1000;

/** A store's synonym sets on PostgreSQL. */
export class PostgresSynonymsRepo implements SynonymsRepository {
  constructor(private readonly sql: Sql) {}

  async get(storeId: string, id: string): Promise<SynonymSet | null> {
    const [row] = await this.sql<
      SynonymRow[]
    >`SELECT id, input, synonyms, updated_at FROM synonyms WHERE store_id = ${storeId} AND id = ${id}`;
    return row ? toSynonymSet(row) : null;
  }

  async list(storeId: string, from: number, limit: number | null): Promise<SynonymSet[]> {
    const rows = await this.sql<SynonymRow[]>`
      SELECT id, input, synonyms, updated_at FROM synonyms WHERE store_id = ${storeId} ORDER BY id LIMIT ${limit} OFFSET ${from}`;
    return rows.map(toSynonymSet);
  }

  async count(storeId: string): Promise<number> {
    const [row] = await this.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM synonyms WHERE store_id = ${storeId}`;
    return row!.n;
  }

  async existing(storeId: string, ids: readonly string[]): Promise<Set<string>> {
    const rows = await this.sql<{ id: string }[]>`SELECT id FROM synonyms WHERE store_id = ${storeId} AND id = ANY(${ids as string[]})`;
    return new Set(rows.map((r) => r.id));
  }

  async put(storeId: string, sets: readonly { id: string; body: SynonymBody }[], at: number): Promise<void> {
    const rows = sets.map(({ id, body }) => ({
      store_id: storeId,
      id,
      input: body.input ?? null,
      synonyms: JSON.stringify(body.synonyms),
      updated_at: at,
    }));
    await this.sql.begin(async (tx) => {
      for (let i = 0; i < rows.length; i += PUT_CHUNK) {
        await tx`
          INSERT INTO synonyms ${tx(rows.slice(i, i + PUT_CHUNK), "store_id", "id", "input", "synonyms", "updated_at")}
          ON CONFLICT (store_id, id) DO UPDATE SET input = excluded.input, synonyms = excluded.synonyms, updated_at = excluded.updated_at`;
      }
    });
  }

  async delete(storeId: string, id: string): Promise<boolean> {
    return (await this.sql`DELETE FROM synonyms WHERE store_id = ${storeId} AND id = ${id}`).count > 0;
  }
}
