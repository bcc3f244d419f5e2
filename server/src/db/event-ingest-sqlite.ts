import type { Database } from "bun:sqlite";
import type { EventEffect, EventIngest } from "./event-ingest.ts";
import { EventsRepo } from "./events-repo.ts";
import type { NewEvent } from "./events-repository.ts";
import { LookPairsRepo } from "./look-pairs-repo.ts";
import { SignalsRepo } from "./signals-repo.ts";
import { writeTransaction } from "./connection.ts";

/** Event ingest in the embedded database: one SQLite transaction, which commits before commit() resolves. */
export class SqliteEventIngest implements EventIngest {
  private readonly events: EventsRepo;
  private readonly signals: SignalsRepo;
  private readonly lookPairs: LookPairsRepo;

  constructor(private readonly db: Database) {
    this.events = new EventsRepo(db);
    this.signals = new SignalsRepo(db);
    this.lookPairs = new LookPairsRepo(db);
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
