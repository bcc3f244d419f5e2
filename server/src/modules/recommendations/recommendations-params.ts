import { ValidationError } from "../../errors.ts";
import { pageParams, text, type Raw } from "../../http/query-params.ts";
import { shopperKeysOf } from "../analytics/storage/shopper-erasure-repository.ts";

/* GET /recommendations/{placement} parameters; each 400 names its parameter. */

export interface Page {
  from: number;
  pageSize: number;
}

export interface TrendingParams extends Page {
  /** A category path as the category facets give it ("Apparel > Topwear"): trending within it. */
  category?: string;
}

export interface ProductParams extends Page {
  productId: string;
}

/** The shopper a list is for: u:<userId> first, then s:<sessionId>, as shopper_affinities keys them. */
export interface ShopperParams extends Page {
  shoppers: string[];
}

export const parseTrendingParams = (raw: Raw): TrendingParams => ({ ...pageParams(raw), category: text(raw, "category", 512) });

export function parseProductParams(raw: Raw): ProductParams {
  const productId = text(raw, "productId", 256);
  if (!productId) throw new ValidationError("Give a productId", [{ path: "query.productId", problem: "is required" }]);
  return { ...pageParams(raw), productId };
}

export function parseShopperParams(raw: Raw): ShopperParams {
  const userId = text(raw, "userId", 256);
  const sessionId = text(raw, "sessionId", 256);
  if (!userId && !sessionId)
    throw new ValidationError("Give a userId or a sessionId", [{ path: "query.userId", problem: "userId or sessionId is required" }]);
  return { ...pageParams(raw), shoppers: shopperKeysOf({ userId, sessionId }) };
}
