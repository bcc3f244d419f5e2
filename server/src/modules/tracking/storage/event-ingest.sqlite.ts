import type { Database } from "bun:sqlite";
import type { EventEffect, EventIngest } from "./event-ingest-repository.ts";
import { SqliteEventsRepo } from "../../events/storage/events.sqlite.ts";
import type { NewEvent } from "../../events/storage/events-repository.ts";
import { SqliteLookPairsRepo } from "../../looks/storage/look-pairs.sqlite.ts";
import { SqlitePurchaseCounts } from "../../analytics/storage/purchase-counts.sqlite.ts";
import { writeTransaction } from "../../../platform/sqlite/connection.ts";

/** Event ingest in the embedded database: one SQLite transaction, which commits before commit() resolves. */
export class SqliteEventIngest implements EventIngest {
  private readonly events: SqliteEventsRepo;
  private readonly signals: SqlitePurchaseCounts;
  private readonly lookPairs: SqliteLookPairsRepo;

  constructor(private readonly db: Database) {
    this.events = new SqliteEventsRepo(db);
    this.signals = new SqlitePurchaseCounts(db);
    this.lookPairs = new SqliteLookPairsRepo(db);
  }

  async commit(events: readonly NewEvent[], effects: readonly EventEffect[]): Promise<[string, string[]][]> {
    const changed: [string, string[]][] = [];
    writeTransaction(this.db, () => {
      this.events.append(events);
      for (const e of effects) {
        if (e.kind === "lookClick") {
          this.lookPairs.countLookClick(e.storeId, e.sessionId, e.baseId, e.clickedId);
          continue;
        }
        const counted = this.signals.countOrder(e.storeId, e.orderId, e.lines, { actor: e.actor, day: e.day });
        this.lookPairs.countOrder(e.storeId, counted.ordered);
        changed.push([e.storeId, counted.changed]);
      }
    })();
    return changed;
  }
}
