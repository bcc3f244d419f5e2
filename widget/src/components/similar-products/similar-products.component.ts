import { html, nothing } from "lit";
import type { SearchProduct, Texts } from "@storefront-search/contract";
import type { WidgetContext } from "../../core/widget-context.ts";
import type { SfsProductClickEvent } from "../../events/sfs-product-click.ts";
import { CARD_EXPORT_PARTS } from "../shared/export-parts.ts";
import { pager } from "../shared/pager.ts";
import { ProductCarousel } from "../shared/product-carousel.ts";
import { similarProductsStyles } from "./similar-products.styles.ts";

/** Products asked for: a carousel shows a few at a time and pages through the rest by scrolling. */
const PAGE_SIZE = 24;
const SKELETON_CARDS = 4;

let carousels = 0;

/**
 * "You may also like" on a product page: products similar to `product-id` (GET /similarity), in an accessible
 * carousel: a labelled region, a list that scrolls and snaps card by card, previous/next buttons, lazy images
 * (the product card's srcset), a skeleton while loading. It hides itself (no empty box) when there is nothing
 * similar or the request fails. Sends ViewSimilarProducts once when first half visible, and SimilarProductClick
 * when a card is followed (`similarProductId`: the product whose similar products are shown; `clickProductId`:
 * the one clicked).
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
export class SfsSimilarProducts extends ProductCarousel<SearchProduct> {
  static override styles = similarProductsStyles;

  static override properties = {
    atStart: { state: true },
    atEnd: { state: true },
  };

  declare atStart: boolean;
  declare atEnd: boolean;
  private readonly listId = `sfs-similar-${++carousels}`;

  constructor() {
    super();
    this.atStart = true;
    this.atEnd = false;
  }

  protected async fetch(ctx: WidgetContext, signal: AbortSignal): Promise<SearchProduct[]> {
    const answer = await ctx.client.similar(
      { productId: this.productId, variantId: this.variantId || undefined, pageSize: PAGE_SIZE },
      signal,
    );
    return answer.products.map((p) => p.product);
  }

  protected onSeen(): void {
    this.context?.track("ViewSimilarProducts", { productId: this.productId });
  }

  protected onCardClick(event: SfsProductClickEvent): void {
    this.context?.track("SimilarProductClick", { similarProductId: this.productId, clickProductId: event.detail.productId });
  }

  private get list(): HTMLElement | null {
    return this.renderRoot.querySelector(`#${this.listId}`);
  }

  private scrollByView(direction: 1 | -1): void {
    const list = this.list;
    list?.scrollBy({ left: direction * list.clientWidth });
  }

  private onScroll(): void {
    const list = this.list;
    if (!list) return;
    this.atStart = list.scrollLeft <= 1;
    this.atEnd = list.scrollLeft + list.clientWidth >= list.scrollWidth - 1;
  }

  protected override updated(): void {
    this.onScroll();
  }

  /** The carousel's heading. */
  protected heading(texts: Texts): string {
    return texts.similarProducts;
  }

  /** What a screen reader hears while it loads. */
  protected loadingText(texts: Texts): string {
    return texts.loadingSimilar;
  }

  override render() {
    const ctx = this.context;
    if (!ctx || (!this.loading && this.items.length === 0)) return nothing;
    const t = ctx.config.texts;
    const heading = this.heading(t);
    return html`<section part="base" aria-labelledby="${this.listId}-title" aria-busy=${this.loading ? "true" : "false"}>
      <div part="header" class="header">
        <h2 part="title" id="${this.listId}-title">${heading}</h2>
        ${pager("", this.listId, t, this.loading || this.atStart, this.loading || this.atEnd, (step) => this.scrollByView(step))}
      </div>
      <ul part="list" id=${this.listId} tabindex="0" aria-label=${heading} @scroll=${this.onScroll} @sfs-product-click=${this.onCardClick}>
        ${
          this.loading
            ? Array.from({ length: SKELETON_CARDS }, () => html`<li part="item" aria-hidden="true"><div part="skeleton"></div></li>`)
            : this.items.map(
                (p) => html`<li part="item">
                <sfs-product-card part="card" exportparts=${CARD_EXPORT_PARTS} .product=${p} .texts=${t} .priceFormat=${ctx.priceFormat} image-sizes="14rem"></sfs-product-card>
              </li>`,
              )
        }
      </ul>
      ${this.loading ? html`<span class="visually-hidden" role="status">${this.loadingText(t)}</span>` : nothing}
    </section>`;
  }
}
