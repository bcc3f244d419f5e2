import type { Database } from "bun:sqlite";
import type { CatalogRepo } from "../../db/catalog-repo.ts";
import { EnrichmentRepo } from "../../db/enrichment-repo.ts";
import type { StoresRepo } from "../../db/stores-repo.ts";
import { TrendInputsRepo } from "../../db/trend-inputs-repo.ts";
import type { Logger } from "../../log.ts";
import type { ShapeOptions } from "../catalog/search-product.ts";
import { effectiveSettings } from "../settings/settings-schema.ts";
import { enqueueDeliveries } from "../webhooks/webhook-outbox.ts";
import { EnrichmentWorker } from "./enrichment-worker.ts";
import { imageStage } from "./image-stage.ts";
import { productContent } from "./product-content.ts";
import { textAttributes } from "./text-attributes.ts";
import { TrendingValues } from "./trending-values.ts";
import { VOCABULARY_LOCALES, type VocabularyLocale } from "./vocabulary.ts";
import { webhookBody } from "./webhook-body.ts";

/** The enrichment pipeline as the service runs it: stages, content, webhook calls, and what search shows of it. */
export function createEnrichment(d: {
  db: Database;
  catalog: CatalogRepo;
  stores: StoresRepo;
  log: Logger;
  now: () => number;
  allowPrivateNetworks: boolean;
  /** After a stage queued webhook calls. */
  delivered: () => void;
  /** After the image stage found a product's colours (its stored Search product must be shaped again). */
  recoloured: (storeId: string, productId: string) => void;
}) {
  const repo = new EnrichmentRepo(d.db);
  const trending = new TrendingValues(new TrendInputsRepo(d.db), textAttributes, d.now);
  const localesOf = (storeId: string): VocabularyLocale[] => {
    const wanted = effectiveSettings(d.stores.get(storeId)?.settings ?? {}).locales;
    const served = VOCABULARY_LOCALES.filter((l) => wanted.includes(l));
    return served.length ? served : ["en"];
  };
  const worker = new EnrichmentWorker({
    db: d.db,
    repo,
    catalog: d.catalog,
    log: d.log,
    now: d.now,
    text: (product) => ({ attributes: textAttributes(product) as Record<string, string[]>, colours: null }),
    image: (product, text) => imageStage(product, text, { allowPrivateNetworks: d.allowPrivateNetworks }),
    content: (storeId, product, result) => productContent(product, result.attributes, localesOf(storeId)),
    deliver: ({ storeId, product, productVersion, stage, result, content }) =>
      enqueueDeliveries(d.db, {
        storeId,
        productId: product.id,
        productVersion,
        stage,
        body: webhookBody({ storeId, product, productVersion, attributes: result.attributes, content, locales: localesOf(storeId), trending: trending.of(storeId) }),
        now: d.now(),
      }),
    delivered: d.delivered,
    changed: d.recoloured,
  });
  /** A product's colours per variation, for its Search product. */
  const coloursOf = (storeId: string, productId: string): ShapeOptions["colourValues"] => {
    const colours = repo.result(storeId, productId)?.colours;
    return colours ? new Map(colours.map((c) => [c.variationId, c.values])) : undefined;
  };
  return { worker, repo, coloursOf };
}
