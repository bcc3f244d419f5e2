import type { EnrichmentRepository } from "../enrichment/storage/enrichment-repository.ts";
import type { PurchaseCounts } from "../analytics/storage/purchase-counts-repository.ts";
import type { StoresRepository } from "../stores/storage/stores-repository.ts";
import { enrichedSearch } from "../enrichment/enriched-search.ts";
import { vocabularyLocales } from "../enrichment/vocabulary.ts";
import { effectiveSettings } from "../settings/settings-schema.ts";
import type { RankingContext } from "../catalog/engine-document.ts";

/** The inputs of a store's engine documents that do not come from the product: settings, event signals, enrichment. */
export class RankingInputs {
  constructor(
    private readonly stores: StoresRepository,
    private readonly signals: PurchaseCounts,
    private readonly enrichment: Pick<EnrichmentRepository, "resultsOf">,
  ) {}

  async forProducts(storeId: string, productIds: readonly string[]): Promise<(productId: string) => RankingContext> {
    const settings = effectiveSettings((await this.stores.get(storeId))?.settings ?? {});
    const purchases = await this.signals.purchases(storeId, productIds);
    const enriched = await this.enrichment.resultsOf(storeId, productIds);
    const locales = vocabularyLocales(settings.locales);
    return (productId) => {
      const found = enriched.get(productId);
      return {
        ratingPrior: settings.ratingPrior,
        purchases: purchases.get(productId) ?? 0,
        enriched: found && enrichedSearch(found.colours, locales),
      };
    };
  }
}
