import { randomBytes } from "node:crypto";
import { ConflictError, LimitReachedError, NotFoundError, ValidationError, type ErrorDetail } from "../../errors.ts";
import type { SettingsService } from "../settings/settings-service.ts";
import type { StoreRow } from "../stores/storage/stores-repository.ts";
import type { Deleted, ExperimentEndReport, ExperimentList, ExperimentResults, SampleSizeEstimate } from "@storefront-search/contract";
import { resultsOf } from "./experiment-results.ts";
import {
  MAX_EXPERIMENTS_PER_STORE,
  type Overrides,
  type Experiment,
  type ExperimentBody,
  type ExperimentStatus,
} from "./experiment-schema.ts";
import { overlaps } from "./experiment-scope.ts";
import { sampleSize } from "./statistics.ts";
import type { RunningExperiments } from "./running-experiments.ts";
import { overStore } from "../settings/shopper-variant.ts";
import type { RulesRepository } from "../rules/storage/rules-repository.ts";
import type { SynonymsRepository } from "../synonyms/storage/synonyms-repository.ts";
import type { ExperimentsRepository, ExperimentWrite, StoredExperiment } from "./storage/experiments-repository.ts";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

const toExperiment = (row: StoredExperiment): Experiment => ({
  ...(JSON.parse(row.body) as ExperimentBody),
  id: row.id,
  status: row.status as ExperimentStatus,
  winner: row.winner,
  createdAt: iso(row.createdAt)!,
  updatedAt: iso(row.updatedAt)!,
  startedAt: iso(row.startedAt),
  endedAt: iso(row.endedAt),
});

/**
 * Experiments, admin key: their life (draft → running → stopped, or ended with a winner), the one-running-per-scope
 * rule, and their results. Every write goes through the repository's change, so its checks see every replica's writes.
 */
export class ExperimentsService {
  constructor(
    private readonly repo: ExperimentsRepository,
    /** Counts the events still waiting (the analytics worker), so an acknowledged event is in the results. */
    private readonly catchUp: () => Promise<unknown>,
    private readonly settings: Pick<SettingsService, "update">,
    private readonly now: () => number,
    /** Tells every replica's RunningExperiments that the store's experiments changed. */
    private readonly running: Pick<RunningExperiments, "changed">,
    /** The store's rules and synonym sets: a variant may name only ones that exist. */
    private readonly named: { rules: Pick<RulesRepository, "all">; synonyms: Pick<SynonymsRepository, "existing"> },
  ) {}

  async list(store: StoreRow): Promise<ExperimentList> {
    return { experiments: (await this.repo.all(store.id)).map(toExperiment) };
  }

  async get(store: StoreRow, id: string): Promise<Experiment> {
    return toExperiment(await this.row(store, id));
  }

  async create(store: StoreRow, body: ExperimentBody): Promise<Experiment> {
    await this.assertNamedExist(store, body);
    const at = this.now();
    const id = `exp_${randomBytes(16).toString("hex")}`;
    return this.change(store, (all) => {
      if (all.length >= MAX_EXPERIMENTS_PER_STORE)
        throw new LimitReachedError(`The store holds ${MAX_EXPERIMENTS_PER_STORE} experiments, the most it may; delete one first`);
      const row = {
        id,
        body: JSON.stringify(body),
        status: "draft",
        winner: null,
        createdAt: at,
        updatedAt: at,
        startedAt: null,
        endedAt: null,
      };
      return { write: { put: row }, result: row };
    });
  }

  async update(store: StoreRow, id: string, body: ExperimentBody): Promise<Experiment> {
    await this.assertNamedExist(store, body);
    // Only a draft: the counters of one that ran name its variants by position, which a new definition could move.
    return this.transition(store, id, ["draft"], "changed", (row) => ({ ...row, body: JSON.stringify(body) }));
  }

  async start(store: StoreRow, id: string): Promise<Experiment> {
    const at = this.now();
    return this.change(store, (all) => {
      const row = found(all, id);
      allowed(row, ["draft"], "started");
      const scope = toExperiment(row).scope;
      const clash = all.find((other) => other.status === "running" && overlaps(scope, toExperiment(other).scope));
      if (clash)
        throw new ConflictError(`Experiment ${clash.id} (${toExperiment(clash).name}) runs on an overlapping scope; stop it first`);
      const started = { ...row, status: "running", startedAt: at, updatedAt: at };
      return { write: { put: started }, result: started };
    });
  }

  async stop(store: StoreRow, id: string): Promise<Experiment> {
    const at = this.now();
    return this.transition(store, id, ["running"], "stopped", (row) => ({ ...row, status: "stopped", endedAt: at }));
  }

  /**
   * Ends the experiment with the named variant as the winner. The winner's settings overrides are applied to the
   * store's settings first, so an experiment marked ended always has them in force (a repeat applies them again, which
   * changes nothing).
   */
  async end(store: StoreRow, id: string, winnerName: string): Promise<ExperimentEndReport> {
    const current = toExperiment(await this.row(store, id));
    if (current.status !== "running" && current.status !== "stopped")
      throw new ConflictError(`Experiment ${id} is ${current.status}: only a running or stopped experiment can end with a winner`);
    const winner = current.variants.find((v) => v.name === winnerName);
    if (!winner)
      throw new ValidationError("No such variant", [
        { path: "body.winner", problem: `must name one of the variants (${current.variants.map((v) => v.name).join(", ")})` },
      ]);
    const settings = overStore(store, winner.overrides?.settings ?? {});
    if (Object.keys(settings).length) await this.settings.update(store, settings);
    const at = this.now();
    const ended = await this.transition(store, id, ["running", "stopped"], "ended", (row) => ({
      ...row,
      status: "ended",
      winner: winner.name,
      endedAt: row.endedAt ?? at,
    }));
    const losers = current.variants.filter((v) => v !== winner);
    const onlyLosers = (pick: (o: Overrides) => string[] | undefined) => {
      const kept = new Set(pick(winner.overrides ?? {}) ?? []);
      return [...new Set(losers.flatMap((v) => pick(v.overrides ?? {}) ?? []))].filter((x) => !kept.has(x)).sort();
    };
    return {
      experiment: ended,
      appliedSettings: Object.keys(settings).sort(),
      review: { rules: onlyLosers((o) => o.rules), synonymSets: onlyLosers((o) => o.synonymSets) },
    };
  }

  async delete(store: StoreRow, id: string): Promise<Deleted> {
    await this.repo.change(store.id, (all) => {
      allowed(found(all, id), ["draft", "stopped"], "deleted");
      return { write: { delete: id }, result: null };
    });
    await this.running.changed(store.id);
    return { id, deleted: true };
  }

  /**
   * The results so far, from the per-shopper counters the analytics worker keeps (experiment-counter.ts): a shopper
   * counts for the variant their events name, else for their assignment.
   */
  async results(store: StoreRow, id: string): Promise<ExperimentResults> {
    const experiment = toExperiment(await this.row(store, id));
    await this.catchUp();
    return resultsOf(experiment, await this.repo.shoppers(store.id, id));
  }

  /** Shoppers and days the experiment needs to detect a lift in a rate, at its variants' shares. */
  async sampleSize(
    store: StoreRow,
    id: string,
    q: { baselineRate: number; minimumDetectableLift: number; dailyShoppers: number },
  ): Promise<SampleSizeEstimate> {
    if (q.baselineRate * (1 + q.minimumDetectableLift) >= 1)
      throw new ValidationError("The lifted rate must stay below 1", [
        { path: "query.minimumDetectableLift", problem: "must keep baselineRate × (1 + minimumDetectableLift) below 1" },
      ]);
    const experiment = toExperiment(await this.row(store, id));
    return sampleSize({ ...q, shares: experiment.variants.map((v) => v.share) });
  }

  /**
   * Every rule and synonym set the variants name exists: an unknown id (a typo, a deleted rule) would test nothing.
   * Checked when the definition is written; one deleted later simply stops having an effect.
   */
  private async assertNamedExist(store: StoreRow, body: ExperimentBody): Promise<void> {
    const listed = (pick: (o: Overrides) => string[] | undefined) => [
      ...new Set(body.variants.flatMap((v) => pick(v.overrides ?? {}) ?? [])),
    ];
    const [ruleIds, setIds] = [listed((o) => o.rules), listed((o) => o.synonymSets)];
    const [rules, sets] = await Promise.all([
      ruleIds.length ? this.named.rules.all(store.id).then((all) => new Set(all.map((r) => r.id))) : new Set<string>(),
      setIds.length ? this.named.synonyms.existing(store.id, setIds) : new Set<string>(),
    ]);
    const problems: ErrorDetail[] = body.variants.flatMap((v, i) => [
      ...(v.overrides?.rules ?? []).flatMap((id, j) =>
        rules.has(id) ? [] : [{ path: `body.variants[${i}].overrides.rules[${j}]`, problem: `no rule "${id}" in this store` }],
      ),
      ...(v.overrides?.synonymSets ?? []).flatMap((id, j) =>
        sets.has(id) ? [] : [{ path: `body.variants[${i}].overrides.synonymSets[${j}]`, problem: `no synonym set "${id}" in this store` }],
      ),
    ]);
    if (problems.length)
      throw new ValidationError(`Invalid experiment: ${problems[0]!.path} ${problems[0]!.problem}`, problems.slice(0, 20));
  }

  private async row(store: StoreRow, id: string): Promise<StoredExperiment> {
    const row = await this.repo.get(store.id, id);
    if (!row) throw new NotFoundError(`No experiment ${id}`);
    return row;
  }

  private async change(store: StoreRow, decide: (all: StoredExperiment[]) => { write: ExperimentWrite; result: StoredExperiment }) {
    const written = await this.repo.change(store.id, decide);
    await this.running.changed(store.id);
    return toExperiment(written);
  }

  /** Rewrites one experiment, if its status is one of `from`, stamping the change's time. */
  private transition(
    store: StoreRow,
    id: string,
    from: readonly ExperimentStatus[],
    verb: string,
    next: (row: StoredExperiment) => StoredExperiment,
  ): Promise<Experiment> {
    const at = this.now();
    return this.change(store, (all) => {
      const row = found(all, id);
      allowed(row, from, verb);
      const written = { ...next(row), updatedAt: at };
      return { write: { put: written }, result: written };
    });
  }
}

function found(all: readonly StoredExperiment[], id: string): StoredExperiment {
  const row = all.find((e) => e.id === id);
  if (!row) throw new NotFoundError(`No experiment ${id}`);
  return row;
}

function allowed(row: StoredExperiment, from: readonly string[], verb: string): void {
  if (!from.includes(row.status))
    throw new ConflictError(`Experiment ${row.id} is ${row.status}: only a ${from.join(" or ")} experiment can be ${verb}`);
}
