import { livePages, type CatalogRepository } from "../catalog/storage/catalog-repository.ts";
import type { StoreRow, StoresRepository } from "../stores/storage/stores-repository.ts";
import type { SearchEngine } from "../../engine/types.ts";
import { ValidationError, type ErrorDetail } from "../../errors.ts";
import { schemaProblems } from "../../schema-check.ts";
import { ratingNumbers } from "../catalog/engine-document.ts";
import type { Product } from "../catalog/product-schema.ts";
import { isFacetSettingKey } from "../facets/facet-display.ts";
import { effectiveSettings, StoreSettings, type EffectiveSettings } from "./settings-schema.ts";

/** Products read from the catalog at a time when the rating prior changes. */
const CATALOG_PAGE = 1000;

export class SettingsService {
  constructor(
    private readonly stores: StoresRepository,
    private readonly catalog: CatalogRepository,
    private readonly engine: SearchEngine,
  ) {}

  /**
   * Merges the given members into the store's settings (a member given as null goes back to its default);
   * numbers that depend on a changed setting follow. Answers the effective settings.
   */
  async update(store: StoreRow, body: unknown): Promise<EffectiveSettings> {
    const { set, cleared } = splitCleared(body);
    const problems = [...schemaProblems(StoreSettings, set, "body"), ...facetKeyProblems(set as StoreSettings)];
    for (const key of cleared) if (!(key in StoreSettings.properties)) problems.push({ path: `body.${key}`, problem: "is not a setting" });
    if (problems.length) throw new ValidationError(`Invalid settings: ${problems[0]!.path} ${problems[0]!.problem}`, problems);
    const merged: Record<string, unknown> = { ...store.settings, ...(set as StoreSettings) };
    for (const key of cleared) delete merged[key];
    await this.stores.updateSettings(store.id, merged);
    const before = effectiveSettings(store.settings).ratingPrior;
    const after = effectiveSettings(merged).ratingPrior;
    if (before.mean !== after.mean || before.weight !== after.weight) {
      // rating2 sorts by a Bayesian score computed at indexing time from the prior: recompute it for the store.
      const updates: { id: string; numbers: Record<string, number | null> }[] = [];
      for await (const rows of livePages(this.catalog, store.id, CATALOG_PAGE)) {
        for (const { id, doc } of rows) {
          const numbers = ratingNumbers(JSON.parse(doc) as Product, after);
          updates.push({ id, numbers: { rating_bayes: numbers.rating_bayes ?? null } });
        }
      }
      await this.engine.setNumbers(store.id, updates);
    }
    return effectiveSettings(merged);
  }
}

/** The body's members to set, and the names of those given as null (to clear). */
function splitCleared(body: unknown): { set: unknown; cleared: string[] } {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return { set: body, cleared: [] };
  const entries = Object.entries(body);
  return {
    set: Object.fromEntries(entries.filter(([, v]) => v !== null)),
    cleared: entries.filter(([, v]) => v === null).map(([k]) => k),
  };
}

/** Facet keys the schema cannot check (which keys exist, none twice), under `base` (the settings object's path). */
export function facetKeyProblems(settings: StoreSettings, base = "body"): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const seen = new Set<string>();
  (settings.facets ?? []).forEach((f, i) => {
    if (typeof f?.key !== "string") return;
    if (!isFacetSettingKey(f.key))
      problems.push({
        path: `${base}.facets[${i}].key`,
        problem: `"${f.key.slice(0, 80)}" is not a facet key (designer, gender, ageGroup, color, size, availability, collection, price, category.lvlN, tag.<prefix>, tag.*, category.lvl*)`,
      });
    else if (seen.has(f.key)) problems.push({ path: `${base}.facets[${i}].key`, problem: `"${f.key}" is listed twice` });
    seen.add(f.key);
  });
  return problems;
}
