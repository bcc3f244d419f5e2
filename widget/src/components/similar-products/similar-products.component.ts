import { html, LitElement, nothing, type PropertyValues } from "lit";
import type { SearchProduct } from "../../api/types.ts";
import type { WidgetContext } from "../../core/widget-context.ts";
import type { SfsProductClickEvent } from "../../events/sfs-product-click.ts";
import { CARD_EXPORT_PARTS } from "../shared/export-parts.ts";
import { similarProductsStyles } from "./similar-products.styles.ts";

/** Products asked for: a carousel shows a few at a time and pages through the rest by scrolling. */
const PAGE_SIZE = 24;
const SKELETON_CARDS = 4;
/** Share of the carousel on screen before it counts as seen (ViewSimilarProducts). */
const VISIBLE_RATIO = 0.5;

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
 * @csspart previous - Scrolls back by a view.
 * @csspart next - Scrolls on by a view.
 * @csspart list - The scrolling list of cards.
 * @csspart item - One list item.
 * @csspart skeleton - A placeholder card while loading.
 * @csspart card - Each product card; its own parts are exported as card-base, card-image, … (see sfs-product-card).
 *
 * @cssproperty --sfs-similar-card-width - Width of a card (default min(45%, 14rem)).
 * @cssproperty --sfs-similar-title-size - Size of the heading.
 * @cssproperty --sfs-grid-gap - Space between cards.
 */
export class SfsSimilarProducts extends LitElement {
  static override styles = similarProductsStyles;

  static override properties = {
    context: { attribute: false },
    productId: { attribute: "product-id" },
    variantId: { attribute: "variant-id" },
    products: { state: true },
    loading: { state: true },
    atStart: { state: true },
    atEnd: { state: true },
  };

  declare context: WidgetContext | null;
  declare productId: string;
  declare variantId: string;
  declare products: SearchProduct[];
  declare loading: boolean;
  declare atStart: boolean;
  declare atEnd: boolean;
  private readonly listId = `sfs-similar-${++carousels}`;
  private abort: AbortController | null = null;
  private observer: IntersectionObserver | null = null;
  private seen = false;

  constructor() {
    super();
    this.context = null;
    this.productId = "";
    this.variantId = "";
    this.products = [];
    this.loading = false;
    this.atStart = true;
    this.atEnd = false;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.abort?.abort();
    this.observer?.disconnect();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if ((changed.has("productId") || changed.has("variantId") || changed.has("context")) && this.context && this.productId) void this.load();
  }

  private async load(): Promise<void> {
    this.abort?.abort();
    const abort = (this.abort = new AbortController());
    this.loading = true;
    this.hidden = false;
    try {
      const answer = await this.context!.client.similar({ productId: this.productId, variantId: this.variantId || undefined, pageSize: PAGE_SIZE }, abort.signal);
      if (abort.signal.aborted) return;
      this.products = answer.products.map((p) => p.product);
    } catch {
      if (abort.signal.aborted) return;
      this.products = [];
    }
    this.loading = false;
    this.hidden = this.products.length === 0;
    if (!this.hidden) this.watchVisibility();
  }

  /** ViewSimilarProducts once, when the shopper first has the carousel in view (at once where nothing can tell). */
  private watchVisibility(): void {
    if (this.seen || this.observer) return;
    if (typeof IntersectionObserver !== "function") return this.markSeen();
    this.observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting && e.intersectionRatio >= VISIBLE_RATIO)) this.markSeen();
      },
      { threshold: VISIBLE_RATIO },
    );
    this.observer.observe(this);
  }

  private markSeen(): void {
    this.observer?.disconnect();
    this.observer = null;
    if (this.seen) return;
    this.seen = true;
    this.context?.track("ViewSimilarProducts", { productId: this.productId });
  }

  private onCardClick(event: SfsProductClickEvent): void {
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

  override render() {
    const ctx = this.context;
    if (!ctx || (!this.loading && this.products.length === 0)) return nothing;
    const t = ctx.config.texts;
    return html`<section part="base" aria-labelledby="${this.listId}-title" aria-busy=${this.loading ? "true" : "false"}>
      <div part="header">
        <h2 part="title" id="${this.listId}-title">${t.similarProducts}</h2>
        <div part="controls">
          <button part="previous" type="button" aria-controls=${this.listId} aria-label=${t.previous} ?disabled=${this.loading || this.atStart} @click=${() => this.scrollByView(-1)}>‹</button>
          <button part="next" type="button" aria-controls=${this.listId} aria-label=${t.next} ?disabled=${this.loading || this.atEnd} @click=${() => this.scrollByView(1)}>›</button>
        </div>
      </div>
      <ul part="list" id=${this.listId} tabindex="0" aria-label=${t.similarProducts} @scroll=${this.onScroll} @sfs-product-click=${this.onCardClick}>
        ${this.loading
          ? Array.from({ length: SKELETON_CARDS }, () => html`<li part="item" aria-hidden="true"><div part="skeleton"></div></li>`)
          : this.products.map(
              (p) => html`<li part="item">
                <sfs-product-card part="card" exportparts=${CARD_EXPORT_PARTS} .product=${p} .texts=${t} .priceFormat=${ctx.priceFormat} image-sizes="14rem"></sfs-product-card>
              </li>`,
            )}
      </ul>
      ${this.loading ? html`<span class="visually-hidden" role="status">${t.loadingSimilar}</span>` : nothing}
    </section>`;
  }
}
