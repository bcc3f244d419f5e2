import { stableHash } from "../../../engine/stable-hash.ts";
import { shopperKeys, type ShopperErasureRepository } from "./shopper-erasure-repository.ts";
import type { Sql } from "../../../platform/postgres/connection.ts";

/** Erases what the service keeps about one user id, on PostgreSQL. */
export class PostgresShopperErasureRepo implements ShopperErasureRepository {
  constructor(private readonly sql: Sql) {}

  async erase(storeId: string, userId: string): Promise<{ events: number; searches: number; sessions: number }> {
    return this.sql.begin(async (tx) => {
      const sessions = (
        await tx<
          { s: string }[]
        >`SELECT DISTINCT session_id AS s FROM events WHERE store_id = ${storeId} AND user_id = ${userId} AND session_id IS NOT NULL`
      ).map((r) => r.s);
      const events = (await tx`DELETE FROM events WHERE store_id = ${storeId} AND user_id = ${userId}`).count;
      const searches = (await tx`DELETE FROM search_log WHERE store_id = ${storeId} AND user_id = ${userId}`).count;
      // Suggestions count distinct shoppers by a hash of the id (search-log-repo.ts): a hash of a known id is the id.
      await tx`DELETE FROM query_shoppers WHERE store_id = ${storeId} AND shopper = ${stableHash(userId)}`;
      await tx`DELETE FROM attribution_searches WHERE store_id = ${storeId} AND session_id = ANY(${sessions}::text[])`;
      await tx`DELETE FROM attribution_sessions WHERE store_id = ${storeId} AND session_id = ANY(${sessions}::text[])`;
      await tx`DELETE FROM shopper_affinities WHERE store_id = ${storeId} AND shopper = ANY(${shopperKeys(userId, sessions)}::text[])`;
      await tx`DELETE FROM shopper_products WHERE store_id = ${storeId} AND shopper = ANY(${shopperKeys(userId, sessions)}::text[])`;
      await tx`DELETE FROM behaviour_seen WHERE store_id = ${storeId} AND actor = ANY(${[userId, ...sessions]}::text[])`;
      return { events, searches, sessions: sessions.length };
    });
  }
}
