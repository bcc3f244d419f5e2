import { ValidationError } from "../../errors.ts";
import { parseFacetSelections, type FacetSelection } from "../facets/facet-selection.ts";
import { flag, languageParam, pageParams, shopperParams, text, type Raw, type ShopperIds } from "../../http/query-params.ts";

/* GET /similarity parameters: paging, facets and language as search reads them. */

export interface SimilarityParams extends ShopperIds {
  productId: string;
  /** The variant the shopper is looking at: its colour pulls same-coloured alternatives forward. */
  variantId?: string;
  from: number;
  pageSize: number;
  facets: FacetSelection[];
  language?: string;
  /** Each result's score parts (admin key only: checked by the route). */
  explain: boolean;
}

export function parseSimilarityParams(raw: Raw): SimilarityParams {
  const productId = text(raw, "productId", 256);
  if (!productId) throw new ValidationError("Give a productId", [{ path: "query.productId", problem: "is required" }]);
  return {
    productId,
    variantId: text(raw, "variantId", 256),
    ...pageParams(raw),
    facets: parseFacetSelections(raw.facets),
    language: languageParam(raw),
    explain: flag(raw, ["explain"], false),
    ...shopperParams(raw),
  };
}
