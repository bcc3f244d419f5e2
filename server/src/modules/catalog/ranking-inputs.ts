import type { SignalsRepo } from "../../db/signals-repo.ts";
import type { StoresRepo } from "../../db/stores-repo.ts";
import { effectiveSettings } from "../settings/settings-schema.ts";
import type { RankingContext } from "./engine-document.ts";

/** The inputs of a store's sort numbers that do not come from the product: settings and event signals. */
export class RankingInputs {
  constructor(
    private readonly stores: StoresRepo,
    private readonly signals: SignalsRepo,
  ) {}

  forProducts(storeId: string, productIds: readonly string[]): (productId: string) => RankingContext {
    const store = this.stores.get(storeId);
    const ratingPrior = effectiveSettings(store?.settings ?? {}).ratingPrior;
    const purchases = this.signals.purchases(storeId, productIds);
    return (productId) => ({ ratingPrior, purchases: purchases.get(productId) ?? 0 });
  }
}
