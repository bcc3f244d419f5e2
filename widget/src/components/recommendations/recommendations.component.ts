import { isRecommendationPlacement, type RecommendationPlacement, type SearchProduct, type Texts } from "@storefront-search/contract";
import type { WidgetContext } from "../../core/widget-context.ts";
import type { SfsProductClickEvent } from "../../events/sfs-product-click.ts";
import { SfsSimilarProducts } from "../similar-products/similar-products.component.ts";

const PAGE_SIZE = 24;

const HEADINGS: Record<RecommendationPlacement, keyof Texts> = {
  trending: "recommendTrending",
  "bought-together": "recommendBoughtTogether",
  "recently-viewed": "recommendRecentlyViewed",
  "for-you": "recommendForYou",
};

/**
 * A recommendation placement (GET /recommendations/{placement}) in the similar-products carousel:
 * `placement="trending"` (with an optional `category` path), `"bought-together"` (with `product-id`),
 * `"recently-viewed"` and `"for-you"` (for the shopper's anonymous ids). It hides itself when there is nothing to
 * show. A followed card sends ProductClick with `placement`, which the recommendations report counts per placement.
 *
 * @csspart base - The region (a `<section>`).
 * @csspart header - Title and buttons.
 * @csspart title - The heading.
 * @csspart controls - The two buttons.
 * @csspart previous - Scrolls back by a view (`aria-disabled="true"` at the start).
 * @csspart next - Scrolls on by a view (`aria-disabled="true"` at the end).
 * @csspart list - The scrolling list of cards.
 * @csspart item - One list item.
 * @csspart skeleton - A placeholder card while loading.
 * @csspart card - Each product card; its own parts are exported as card-base, card-image, … (see sfs-product-card).
 *
 * @cssproperty --sfs-similar-card-width - Width of a card (default min(45%, 14rem)).
 * @cssproperty --sfs-similar-title-size - Size of the heading.
 * @cssproperty --sfs-grid-gap - Space between cards.
 */
export class SfsRecommendations extends SfsSimilarProducts {
  static override properties = {
    ...SfsSimilarProducts.properties,
    placement: { reflect: true },
    category: {},
  };

  declare placement: string;
  declare category: string;

  constructor() {
    super();
    this.placement = "";
    this.category = "";
  }

  protected override requestProperties(): readonly string[] {
    return [...super.requestProperties(), "placement", "category"];
  }

  protected override askable(): boolean {
    return isRecommendationPlacement(this.placement) && (this.placement !== "bought-together" || this.productId !== "");
  }

  protected override async fetch(ctx: WidgetContext, signal: AbortSignal): Promise<SearchProduct[]> {
    const placement = this.placement as RecommendationPlacement;
    const about =
      placement === "trending" ? { category: this.category } : placement === "bought-together" ? { productId: this.productId } : ctx.ids();
    const answer = await ctx.client.recommend(placement, { ...about, pageSize: PAGE_SIZE }, signal);
    return answer.products.map((p) => p.product);
  }

  protected override onSeen(): void {}

  protected override onCardClick(event: SfsProductClickEvent): void {
    this.context?.track("ProductClick", { clickProductId: event.detail.productId, placement: this.placement });
  }

  protected override heading(texts: Texts): string {
    return texts[HEADINGS[this.placement as RecommendationPlacement]];
  }

  protected override loadingText(texts: Texts): string {
    return texts.loadingRecommendations;
  }
}
