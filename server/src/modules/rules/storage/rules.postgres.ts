import type { RulesRepository, StoredRule } from "./rules-repository.ts";
import type { Sql } from "../../../platform/postgres/connection.ts";

/** A store's query rules on PostgreSQL. */
export class PostgresRulesRepo implements RulesRepository {
  constructor(private readonly sql: Sql) {}

  async get(storeId: string, id: string): Promise<StoredRule | null> {
    const [row] = await this.sql<
      StoredRule[]
    >`SELECT id, rule, updated_at AS "updatedAt" FROM query_rules WHERE store_id = ${storeId} AND id = ${id}`;
    return row ?? null;
  }

  async all(storeId: string): Promise<StoredRule[]> {
    return [
      ...(await this.sql<
        StoredRule[]
      >`SELECT id, rule, updated_at AS "updatedAt" FROM query_rules WHERE store_id = ${storeId} ORDER BY id`),
    ];
  }

  async page(storeId: string, from: number, limit: number): Promise<StoredRule[]> {
    return [
      ...(await this.sql<StoredRule[]>`
        SELECT id, rule, updated_at AS "updatedAt" FROM query_rules WHERE store_id = ${storeId} ORDER BY id LIMIT ${limit} OFFSET ${from}`),
    ];
  }

  async count(storeId: string): Promise<number> {
    const [row] = await this.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM query_rules WHERE store_id = ${storeId}`;
    return row!.n;
  }

  async putAll(storeId: string, rules: readonly { id: string; rule: string }[], at: number, max: number): Promise<Set<string>> {
    return this.sql.begin(async (tx) => {
      // The store's row locked: another replica writing this store's rules waits here, so the count stays true.
      await tx`SELECT 1 FROM stores WHERE id = ${storeId} FOR UPDATE`;
      const [counted] = await tx<{ n: number }[]>`SELECT count(*)::int AS n FROM query_rules WHERE store_id = ${storeId}`;
      const held = new Set(
        (await tx<{ id: string }[]>`SELECT id FROM query_rules WHERE store_id = ${storeId} AND id = ANY(${rules.map((r) => r.id)})`).map(
          (r) => r.id,
        ),
      );
      const refused = new Set<string>();
      let count = counted!.n;
      for (const r of rules) {
        const added = !held.has(r.id);
        if (added && count >= max) {
          refused.add(r.id);
          continue;
        }
        await tx`
          INSERT INTO query_rules (store_id, id, rule, updated_at) VALUES (${storeId}, ${r.id}, ${r.rule}, ${at})
          ON CONFLICT (store_id, id) DO UPDATE SET rule = excluded.rule, updated_at = excluded.updated_at`;
        if (added) {
          count++;
          held.add(r.id);
        }
      }
      return refused;
    });
  }

  async delete(storeId: string, id: string): Promise<boolean> {
    return (await this.sql`DELETE FROM query_rules WHERE store_id = ${storeId} AND id = ${id}`).count > 0;
  }
}
