import type { CatalogRepository } from "../catalog/storage/catalog-repository.ts";
import type { EnrichmentRepository, VariationColours } from "./storage/enrichment-repository.ts";
import type { StoresRepository } from "../stores/storage/stores-repository.ts";
import type { TrendInputsRepository } from "./storage/trend-inputs-repository.ts";
import type { Logger } from "../../log.ts";
import type { MeasuredColours } from "../catalog/catalog-models.ts";
import type { ShapeOptions } from "../catalog/search-product.ts";
import type { ColoursOf } from "../catalog/shaped-products.ts";
import { effectiveSettings } from "../settings/settings-schema.ts";
import { EnrichmentWorker } from "./enrichment-worker.ts";
import { imageStage } from "./image-stage.ts";
import { productContent } from "./product-content.ts";
import { textAttributes } from "./text-attributes.ts";
import { TrendingValues } from "./trending-values.ts";
import { vocabularyLocales, type VocabularyLocale } from "./vocabulary.ts";
import { webhookBody } from "./webhook-body.ts";

/** The enrichment pipeline as the service runs it: stages, content, webhook calls, and what shoppers see of its colours. */
export function createEnrichment(d: {
  repo: EnrichmentRepository;
  /** One process on its database (SQLite): jobs its previous run claimed are due at once. */
  singleProcess: boolean;
  /** Where trending values' inputs are read (the analytics reports). */
  trendInputs: TrendInputsRepository;
  catalog: CatalogRepository;
  stores: StoresRepository;
  log: Logger;
  now: () => number;
  allowPrivateNetworks: boolean;
  /** After a stage committed: what it found goes into search (indexing/enriched-search-sync.ts). */
  stageCommitted: () => void;
  /** After a stage queued webhook calls. */
  delivered: () => void;
  /** After the image stage found a product's colours. */
  imageAnalysed: (storeId: string, productId: string) => void;
  /** Whether acknowledged indexing work is waiting: stages wait for it (a while at most). */
  indexingBusy?: () => boolean;
}) {
  const repo = d.repo;
  const trending = new TrendingValues(d.trendInputs, textAttributes, d.now);
  const localesOf = async (storeId: string): Promise<VocabularyLocale[]> =>
    vocabularyLocales(effectiveSettings((await d.stores.get(storeId))?.settings ?? {}).locales);
  const worker = new EnrichmentWorker({
    repo,
    releaseClaimsAtStart: d.singleProcess,
    catalog: d.catalog,
    ...(d.indexingBusy ? { indexingBusy: d.indexingBusy } : {}),
    log: d.log,
    now: d.now,
    text: (product) => ({ attributes: textAttributes(product) as Record<string, string[]>, colours: null }),
    image: (product, text) => imageStage(product, text, { allowPrivateNetworks: d.allowPrivateNetworks }),
    localesOf,
    content: (product, result, locales) => productContent(product, result.attributes, locales),
    webhookBody: async ({ storeId, product, productVersion, result, content, locales }) =>
      webhookBody({
        storeId,
        product,
        productVersion,
        attributes: result.attributes,
        content,
        locales,
        trending: await trending.of(storeId),
      }),
    committed: (job, result, queued) => {
      if (queued > 0) d.delivered();
      if (result.colours) d.imageAnalysed(job.storeId, job.productId);
      d.stageCommitted();
    },
  });
  /** Products' colours per variation, for their Search products. */
  const coloursOf: ColoursOf = async (storeId, ids) => {
    const out = new Map<string, NonNullable<ShapeOptions["colourValues"]>>();
    for (const [id, colours] of await repo.colours(storeId, ids)) out.set(id, new Map(colours.map((c) => [c.variationId, c.values])));
    return out;
  };
  /** The main colour (largest share) of each variation's image, of those of `ids` image analysis ran for. */
  const mainColoursOf = async (storeId: string, ids: readonly string[]): Promise<Map<string, MeasuredColours>> => {
    const main = (values: VariationColours["values"]) => values.reduce((best, v) => (v.ratio > best.ratio ? v : best)).hex;
    const out = new Map<string, MeasuredColours>();
    for (const [id, colours] of await repo.colours(storeId, ids))
      out.set(id, new Map(colours.filter((c) => c.values.length).map((c) => [c.variationId, main(c.values)])));
    return out;
  };
  return { worker, repo, coloursOf, mainColoursOf };
}
