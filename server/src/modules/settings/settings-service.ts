import type { CatalogRepo } from "../../db/catalog-repo.ts";
import type { StoreRow, StoresRepo } from "../../db/stores-repo.ts";
import type { SearchEngine } from "../../engine/types.ts";
import { ValidationError } from "../../errors.ts";
import { schemaProblems } from "../../schema-check.ts";
import { ratingNumbers } from "../catalog/engine-document.ts";
import type { Product } from "../catalog/product-schema.ts";
import { effectiveSettings, StoreSettings } from "./settings-schema.ts";

export class SettingsService {
  constructor(
    private readonly stores: StoresRepo,
    private readonly catalog: CatalogRepo,
    private readonly engine: SearchEngine,
  ) {}

  /** Merges the given members into the store's settings; numbers that depend on a changed setting follow. */
  async update(store: StoreRow, body: unknown): Promise<StoreSettings> {
    const problems = schemaProblems(StoreSettings, body, "body");
    if (problems.length) throw new ValidationError(`Invalid settings: ${problems[0]!.path} ${problems[0]!.problem}`, problems);
    const merged = { ...store.settings, ...(body as StoreSettings) };
    this.stores.updateSettings(store.id, merged);
    const before = effectiveSettings(store.settings).ratingPrior;
    const after = effectiveSettings(merged).ratingPrior;
    if (before.mean !== after.mean || before.weight !== after.weight) {
      // rating2 sorts by a Bayesian score computed at indexing time from the prior: recompute it for the store.
      const updates: { id: string; numbers: Record<string, number | null> }[] = [];
      for (const { id, doc } of this.catalog.liveProducts(store.id)) {
        const numbers = ratingNumbers(JSON.parse(doc) as Product, after);
        updates.push({ id, numbers: { rating_bayes: numbers.rating_bayes ?? null } });
      }
      await this.engine.setNumbers(store.id, updates);
    }
    return merged;
  }
}
