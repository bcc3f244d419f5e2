import type { EventEffect, EventIngest } from "./event-ingest-repository.ts";
import type { NewEvent } from "../../events/storage/events-repository.ts";
import { LOOK_CLICK_EVIDENCE, ORDER_EVIDENCE, orderPairs } from "../../looks/storage/look-pairs.ts";
import type postgres from "postgres";
import type { Sql } from "../../../platform/postgres/connection.ts";

type Tx = postgres.TransactionSql;

/** Events per INSERT: seven parameters each, far below PostgreSQL's 65,535 per statement. */
const INSERT_CHUNK = 2000;

/**
 * Any fixed number: the advisory lock under which event batches commit one at a time across replicas. An
 * identity column hands out seq at insert, not at commit: without it a batch could commit after a later-numbered
 * one, and a reader that had read up to that later seq (analytics: `seq > last`) would never see it.
 */
export const EVENT_APPEND_LOCK = 7_314_226_002;

/**
 * Event ingest on PostgreSQL: one transaction, committed before commit() resolves. Batches of all replicas
 * commit one at a time (EVENT_APPEND_LOCK), so events' seq order is their commit order.
 */
export class PostgresEventIngest implements EventIngest {
  constructor(private readonly sql: Sql) {}

  async commit(events: readonly NewEvent[], effects: readonly EventEffect[]): Promise<[string, string[]][]> {
    return this.sql.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(${EVENT_APPEND_LOCK})`;
      const rows = events.map((e) => ({
        store_id: e.storeId,
        type: e.type,
        received_at: e.receivedAt,
        user_id: e.userId,
        session_id: e.sessionId,
        api_version: e.apiVersion,
        data: JSON.stringify(e.data),
      }));
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
        await tx`INSERT INTO events ${tx(rows.slice(i, i + INSERT_CHUNK), "store_id", "type", "received_at", "user_id", "session_id", "api_version", "data")}`;
      }
      const changed: [string, string[]][] = [];
      for (const e of effects) {
        if (e.kind === "lookClick") {
          const fresh = await tx`
            INSERT INTO look_clicks (store_id, session_id, product_id, other_id) VALUES (${e.storeId}, ${e.sessionId}, ${e.baseId}, ${e.clickedId})
            ON CONFLICT DO NOTHING`;
          if (fresh.count > 0) await addPairs(tx, e.storeId, [[e.baseId, e.clickedId]], LOOK_CLICK_EVIDENCE);
          continue;
        }
        const fresh = await tx`INSERT INTO counted_orders (store_id, order_id) VALUES (${e.storeId}, ${e.orderId}) ON CONFLICT DO NOTHING`;
        if (fresh.count === 0) {
          changed.push([e.storeId, []]);
          continue;
        }
        const counted: string[] = [];
        for (const line of e.lines) {
          if (e.actor !== null) {
            const first = await tx`
              INSERT INTO purchase_buyers (store_id, day, actor, product_id) VALUES (${e.storeId}, ${e.day}, ${e.actor}, ${line.productId})
              ON CONFLICT DO NOTHING`;
            if (first.count === 0) continue;
          }
          await tx`
            INSERT INTO product_signals (store_id, product_id, purchases) VALUES (${e.storeId}, ${line.productId}, ${line.qty})
            ON CONFLICT (store_id, product_id) DO UPDATE SET purchases = product_signals.purchases + excluded.purchases`;
          counted.push(line.productId);
        }
        await addPairs(tx, e.storeId, orderPairs(e.lines.map((l) => l.productId)), ORDER_EVIDENCE);
        changed.push([e.storeId, counted]);
      }
      return changed;
    });
  }
}

/** Evidence for pairs of products, both directions, in one statement. */
async function addPairs(tx: Tx, storeId: string, pairs: readonly [string, string][], evidence: number): Promise<void> {
  if (pairs.length === 0) return;
  const rows = pairs.flatMap(([a, b]) => [
    { store_id: storeId, product_id: a, other_id: b, evidence },
    { store_id: storeId, product_id: b, other_id: a, evidence },
  ]);
  await tx`
    INSERT INTO look_pairs ${tx(rows, "store_id", "product_id", "other_id", "evidence")}
    ON CONFLICT (store_id, product_id, other_id) DO UPDATE SET evidence = look_pairs.evidence + excluded.evidence`;
}
