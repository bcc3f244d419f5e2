import type { Database } from "bun:sqlite";
import { writeTransaction } from "../../../platform/sqlite/connection.ts";
import {
  EXPERIMENT_COLUMNS,
  experimentValues,
  UPSERT_EXPERIMENT,
  type ExperimentsRepository,
  SHOPPER_COLUMNS,
  type ExperimentWrite,
  type ShopperCounts,
  type StoredExperiment,
} from "./experiments-repository.ts";

/** A store's experiments in the embedded database (a write transaction holds the database: writers wait for each other). */
export class SqliteExperimentsRepo implements ExperimentsRepository {
  constructor(private readonly db: Database) {}

  async get(storeId: string, id: string): Promise<StoredExperiment | null> {
    return this.db
      .query(`SELECT ${EXPERIMENT_COLUMNS} FROM experiments WHERE store_id = ? AND id = ?`)
      .get(storeId, id) as StoredExperiment | null;
  }

  async all(storeId: string): Promise<StoredExperiment[]> {
    return this.allNow(storeId);
  }

  private allNow(storeId: string): StoredExperiment[] {
    return this.db.query(`SELECT ${EXPERIMENT_COLUMNS} FROM experiments WHERE store_id = ? ORDER BY id`).all(storeId) as StoredExperiment[];
  }

  async change<T>(storeId: string, decide: (all: StoredExperiment[]) => { write: ExperimentWrite; result: T }): Promise<T> {
    return writeTransaction(this.db, () => {
      const { write, result } = decide(this.allNow(storeId));
      if (write && "put" in write) this.db.query(UPSERT_EXPERIMENT).run(storeId, ...experimentValues(write.put));
      else if (write) {
        this.db.query("DELETE FROM experiments WHERE store_id = ? AND id = ?").run(storeId, write.delete);
        this.db.query("DELETE FROM experiment_shoppers WHERE store_id = ? AND experiment_id = ?").run(storeId, write.delete);
      }
      return result;
    })();
  }

  async shoppers(storeId: string, experimentId: string): Promise<ShopperCounts[]> {
    return this.db
      .query(`SELECT ${SHOPPER_COLUMNS} FROM experiment_shoppers WHERE store_id = ? AND experiment_id = ?`)
      .all(storeId, experimentId) as ShopperCounts[];
  }
}
