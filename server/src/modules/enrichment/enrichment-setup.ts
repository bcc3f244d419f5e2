import type { Database } from "bun:sqlite";
import type { CatalogRepository } from "../../db/catalog-repository.ts";
import { EnrichedSearchRepo } from "../../db/enriched-search-repo.ts";
import { EnrichmentRepo, type VariationColours } from "../../db/enrichment-repo.ts";
import { SearchProductsRepo } from "../../db/search-products-repo.ts";
import type { StoresRepository } from "../../db/stores-repository.ts";
import { TrendInputsRepo } from "../../db/trend-inputs-repo.ts";
import type { SearchEngine } from "../../engine/types.ts";
import type { Logger } from "../../log.ts";
import type { RankingInputs } from "../catalog/ranking-inputs.ts";
import type { ShapeOptions } from "../catalog/search-product.ts";
import { effectiveSettings } from "../settings/settings-schema.ts";
import { enqueueDeliveries } from "../webhooks/webhook-outbox.ts";
import { EnrichedSearchSync } from "./enriched-search-sync.ts";
import { EnrichmentWorker } from "./enrichment-worker.ts";
import { imageStage } from "./image-stage.ts";
import { productContent } from "./product-content.ts";
import { textAttributes } from "./text-attributes.ts";
import { TrendingValues } from "./trending-values.ts";
import { vocabularyLocales, type VocabularyLocale } from "./vocabulary.ts";
import { webhookBody } from "./webhook-body.ts";

/** The enrichment pipeline as the service runs it: stages, content, webhook calls, and what search shows of it. */
export function createEnrichment(d: {
  db: Database;
  catalog: CatalogRepository;
  stores: StoresRepository;
  log: Logger;
  now: () => number;
  allowPrivateNetworks: boolean;
  engine: SearchEngine;
  ranking: RankingInputs;
  /** After a stage queued webhook calls. */
  delivered: () => void;
  /** After the image stage found a product's colours. */
  imageAnalysed: (storeId: string, productId: string) => void;
  /** Whether acknowledged indexing work is waiting: stages wait for it (a while at most). */
  indexingBusy?: () => boolean;
}) {
  const repo = new EnrichmentRepo(d.db);
  const searchProducts = new SearchProductsRepo(d.db);
  const sync = new EnrichedSearchSync({ repo: new EnrichedSearchRepo(d.db), catalog: d.catalog, ranking: d.ranking, engine: d.engine, log: d.log });
  const trending = new TrendingValues(new TrendInputsRepo(d.db), textAttributes, d.now);
  const localesOf = async (storeId: string): Promise<VocabularyLocale[]> =>
    vocabularyLocales(effectiveSettings((await d.stores.get(storeId))?.settings ?? {}).locales);
  const worker = new EnrichmentWorker({
    db: d.db,
    repo,
    catalog: d.catalog,
    ...(d.indexingBusy ? { indexingBusy: d.indexingBusy } : {}),
    log: d.log,
    now: d.now,
    text: (product) => ({ attributes: textAttributes(product) as Record<string, string[]>, colours: null }),
    image: (product, text) => imageStage(product, text, { allowPrivateNetworks: d.allowPrivateNetworks }),
    localesOf,
    content: (product, result, locales) => productContent(product, result.attributes, locales),
    deliver: ({ storeId, product, productVersion, stage, result, content, locales }) =>
      enqueueDeliveries(d.db, {
        storeId,
        productId: product.id,
        productVersion,
        stage,
        body: webhookBody({ storeId, product, productVersion, attributes: result.attributes, content, locales, trending: trending.of(storeId) }),
        now: d.now(),
      }),
    // Colours change the Search product: its stored shape goes, and the next page shapes it again with them.
    inCommit: (storeId, productId, result) => {
      if (result.colours) searchProducts.remove(storeId, productId);
    },
    committed: (job, result, queued) => {
      if (queued > 0) d.delivered();
      if (result.colours) d.imageAnalysed(job.storeId, job.productId);
      sync.wake();
    },
  });
  /** A product's colours per variation, for its Search product. */
  const coloursOf = (storeId: string, productId: string): ShapeOptions["colourValues"] => {
    const colours = repo.colours(storeId, productId);
    return colours ? new Map(colours.map((c) => [c.variationId, c.values])) : undefined;
  };
  /** The main colour (largest share) of each variation's image, where image analysis ran. */
  const mainColoursOf = (storeId: string, productId: string): Map<string, string> | undefined => {
    const colours = repo.colours(storeId, productId);
    if (!colours) return undefined;
    const main = (values: VariationColours["values"]) => values.reduce((best, v) => (v.ratio > best.ratio ? v : best)).hex;
    return new Map(colours.filter((c) => c.values.length).map((c) => [c.variationId, main(c.values)]));
  };
  return { worker, sync, repo, coloursOf, mainColoursOf };
}
