import type { Sql } from "../../../platform/postgres/connection.ts";
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

/** A store's experiments on PostgreSQL, shared by the replicas. */
export class PostgresExperimentsRepo implements ExperimentsRepository {
  constructor(private readonly sql: Sql) {}

  async get(storeId: string, id: string): Promise<StoredExperiment | null> {
    const [row] = await this.sql.unsafe<StoredExperiment[]>(
      `SELECT ${EXPERIMENT_COLUMNS} FROM experiments WHERE store_id = $1 AND id = $2`,
      [storeId, id],
    );
    return row ?? null;
  }

  async all(storeId: string): Promise<StoredExperiment[]> {
    return [
      ...(await this.sql.unsafe<StoredExperiment[]>(`SELECT ${EXPERIMENT_COLUMNS} FROM experiments WHERE store_id = $1 ORDER BY id`, [
        storeId,
      ])),
    ];
  }

  async change<T>(storeId: string, decide: (all: StoredExperiment[]) => { write: ExperimentWrite; result: T }): Promise<T> {
    return this.sql.begin(async (tx) => {
      // The store's row locked: another replica changing this store's experiments waits here, so its check sees this write.
      await tx`SELECT 1 FROM stores WHERE id = ${storeId} FOR UPDATE`;
      const all = [
        ...(await tx.unsafe<StoredExperiment[]>(`SELECT ${EXPERIMENT_COLUMNS} FROM experiments WHERE store_id = $1 ORDER BY id`, [
          storeId,
        ])),
      ];
      const { write, result } = decide(all);
      if (write && "put" in write) await tx.unsafe(UPSERT_EXPERIMENT, [storeId, ...experimentValues(write.put)]);
      else if (write) {
        await tx`DELETE FROM experiments WHERE store_id = ${storeId} AND id = ${write.delete}`;
        await tx`DELETE FROM experiment_shoppers WHERE store_id = ${storeId} AND experiment_id = ${write.delete}`;
      }
      return result;
    }) as Promise<T>;
  }

  async shoppers(storeId: string, experimentId: string): Promise<ShopperCounts[]> {
    return [
      ...(await this.sql.unsafe<ShopperCounts[]>(
        `SELECT ${SHOPPER_COLUMNS} FROM experiment_shoppers WHERE store_id = $1 AND experiment_id = $2`,
        [storeId, experimentId],
      )),
    ];
  }
}
