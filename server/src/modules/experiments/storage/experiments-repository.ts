import type { ExperimentShopperDelta } from "../../analytics/storage/analytics-state-repository.ts";

/** An experiment as stored: its JSON body (experiment-schema.ts), its status and its times (ms). */
export interface StoredExperiment {
  id: string;
  body: string;
  status: string;
  winner: string | null;
  createdAt: number;
  updatedAt: number;
  startedAt: number | null;
  endedAt: number | null;
}

/**
 * One shopper's counters in one experiment, as the analytics worker keeps them (experiment_shoppers): the variant
 * they were assigned, counts, 0/1 flags for "did it at least once", and the currency their events last named.
 */
export type ShopperCounts = Omit<ExperimentShopperDelta, "storeId" | "experimentId" | "shopper">;

export const SHOPPER_COLUMNS = `variant, searches, empty_searches AS "emptySearches", clicked, carted, ordered, revenue, currency, events, bot, credits_a AS "creditsA", credits_b AS "creditsB"`;

/** What a change writes: one experiment put whole, one deleted (with its shoppers' counters), or nothing. */
export type ExperimentWrite = { put: StoredExperiment } | { delete: string } | null;

/**
 * A store's experiments, deleted with the store: the interface both durable stores implement
 * (experiments.sqlite.ts, experiments.postgres.ts), held to the same behaviour by
 * server/test/repository-conformance.test.ts.
 */
export interface ExperimentsRepository {
  get(storeId: string, id: string): Promise<StoredExperiment | null>;
  /** Every experiment of the store, by id (byte order); a store holds few (MAX_EXPERIMENTS_PER_STORE). */
  all(storeId: string): Promise<StoredExperiment[]>;
  /**
   * Reads the store's experiments and writes what `decide` makes of them, in one transaction that other writers of
   * the store's experiments (other replicas too) wait for: a rule across experiments, such as one running
   * experiment per scope, holds against concurrent starts. `decide` may throw to refuse; nothing is written then.
   */
  change<T>(storeId: string, decide: (all: StoredExperiment[]) => { write: ExperimentWrite; result: T }): Promise<T>;
  /** The counters of every shopper the experiment saw (deleted with the experiment). */
  shoppers(storeId: string, experimentId: string): Promise<ShopperCounts[]>;
}

/** Columns as both databases name them in answers (quoted: PostgreSQL folds unquoted aliases to lower case). */
export const EXPERIMENT_COLUMNS = `id, body, status, winner, created_at AS "createdAt", updated_at AS "updatedAt", started_at AS "startedAt", ended_at AS "endedAt"`;

/** A stored experiment's values in the order of the upsert's columns, after the store id. */
export const experimentValues = (e: StoredExperiment) =>
  [e.id, e.body, e.status, e.winner, e.createdAt, e.updatedAt, e.startedAt, e.endedAt] as const;

export const UPSERT_EXPERIMENT = `
  INSERT INTO experiments (store_id, id, body, status, winner, created_at, updated_at, started_at, ended_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
  ON CONFLICT (store_id, id) DO UPDATE SET body = excluded.body, status = excluded.status, winner = excluded.winner,
    updated_at = excluded.updated_at, started_at = excluded.started_at, ended_at = excluded.ended_at`;
