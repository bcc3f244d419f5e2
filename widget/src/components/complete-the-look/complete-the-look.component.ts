import { html, nothing, type PropertyValues } from "lit";
import type { CtlProduct } from "@storefront-search/contract";
import { fillText } from "../../config/resolve-config.ts";
import { ContainerWidthController } from "../../core/container-width-controller.ts";
import type { WidgetContext } from "../../core/widget-context.ts";
import type { SfsProductClickEvent } from "../../events/sfs-product-click.ts";
import { paidRange } from "../../format/price-format.ts";
import { CARD_EXPORT_PARTS } from "../shared/export-parts.ts";
import { pager } from "../shared/pager.ts";
import { ProductCarousel } from "../shared/product-carousel.ts";
import { completeTheLookStyles } from "./complete-the-look.styles.ts";

/** The service answers at most 9 looks, and CTLViewLookClick's position is 1 to 9. */
const MAX_LOOKS = 9;
/** A look is drawn at least this wide (px, with the gap after it): a page holds as many as fit, at least one. */
const LOOK_WIDTH = 272;
/** Products per popup page: the same on every screen, so that a page means the same in every report. */
export const POPUP_PAGE_SIZE = 3;

let instances = 0;

const slice = <T>(list: T[], page: number, size: number) => list.slice(page * size, page * size + size);
const ids = (products: CtlProduct[]) => [...new Set(products.map((p) => p.productId))];

/**
 * "Complete the look" on a product page: the looks of GET /ctl for `product-id`, in a labelled region that pages
 * through them with previous/next buttons (a page is as many looks as fit the element's width, at least one).
 * Each look is previewed as the source product ("this item") and its products, with a "View Look N" button (N is
 * the look's place overall, 1–9) that opens the look in a modal dialog: focus moves into it and stays there (Tab
 * and Shift+Tab wrap), Escape, the close button or a click on the backdrop close it and focus returns to the
 * button. The dialog lists the look's products three per page, each with "Add to cart" when the store registered
 * a cart hook (`StorefrontSearch.setCartHook`); an item the hook took is reported as AddToCart. It hides itself
 * when there are no looks or the request fails.
 *
 * Events (decided where the specification is silent; docs/widget.md "Complete the look"): `baseProductId` is the source
 * product, `query` "", `facets` [], `sortBy` "" (nothing sorts the looks). In the carousel `relatedProducts` is
 * every look product once, in the carousel's order, `totalProducts` its length, `productIds` the products of the
 * looks on the page shown, `pageSize` the looks per page; in the popup the same for the opened look, its page
 * and POPUP_PAGE_SIZE. A `selectedProduct.position` is the product's 1-based place in that `relatedProducts`;
 * `pageFrom`/`pageTo` are 1-based, and the event's `productIds` are those of the page turned to.
 *
 * @csspart base - The region (a `<section>`).
 * @csspart header - Title and buttons.
 * @csspart title - The heading.
 * @csspart controls - The carousel's previous/next buttons.
 * @csspart previous - The previous page of looks (`aria-disabled="true"` on the first).
 * @csspart next - The next page of looks (`aria-disabled="true"` on the last).
 * @csspart list - The looks of the page.
 * @csspart look - One look.
 * @csspart look-products - A look's products (the source first).
 * @csspart product - One product of a look or of the popup (with `source` for the source product).
 * @csspart source - The source product's entry.
 * @csspart this-item - The "This item" label of the source product.
 * @csspart card - Each product card; its own parts are exported as card-base, card-image, … (see sfs-product-card).
 * @csspart view-look - A look's "View Look N" button.
 * @csspart skeleton - A placeholder look while loading.
 * @csspart dialog - The popup (a modal `<dialog>`).
 * @csspart dialog-body - Its content box.
 * @csspart dialog-header - Its title and close button.
 * @csspart dialog-title - Its heading, "Look N".
 * @csspart close - Its close button.
 * @csspart dialog-list - The look's products in the popup.
 * @csspart add-to-cart - An item's "Add to cart" button (text "Added" once the store's cart took it).
 * @csspart dialog-controls - The popup's previous/next buttons.
 * @csspart dialog-previous - The popup's previous page.
 * @csspart dialog-next - The popup's next page.
 *
 * @cssproperty --sfs-ctl-title-size - Size of the headings of the region and the popup (default 1.125rem).
 * @cssproperty --sfs-ctl-image-width - Width of a product's image in the looks and the popup (default 4rem).
 * @cssproperty --sfs-ctl-look-background - Background of a look (default transparent).
 * @cssproperty --sfs-ctl-look-border - Border of a look (default 1px solid the border colour).
 * @cssproperty --sfs-ctl-dialog-width - Width of the popup (default 32rem, at most the screen less 2rem).
 * @cssproperty --sfs-backdrop - What covers the page behind the popup.
 * @cssproperty --sfs-grid-gap - Space between looks.
 */
export class SfsCompleteTheLook extends ProductCarousel<CtlProduct[]> {
  static override styles = completeTheLookStyles;

  static override properties = {
    page: { state: true },
    opened: { state: true },
    popupPage: { state: true },
    added: { state: true },
  };

  /** The carousel's page, from 0. */
  declare page: number;
  /** The look in the popup (its index), -1 when closed. */
  declare opened: number;
  declare popupPage: number;
  /** Products the store's cart took. */
  declare added: ReadonlySet<string>;
  /** Looks per page: follows the element's width. */
  readonly fit = new ContainerWidthController(this, (width) => Math.max(1, Math.floor((width + 16) / LOOK_WIDTH)), 1);
  private perPage = 1;
  private source: CtlProduct | null = null;
  private related: string[] = [];
  private opener: HTMLElement | null = null;
  private readonly adding = new Set<string>();
  private status = "";
  private readonly uid = `sfs-ctl-${++instances}`;

  constructor() {
    super();
    this.page = 0;
    this.opened = -1;
    this.popupPage = 0;
    this.added = new Set();
  }

  protected async fetch(ctx: WidgetContext, signal: AbortSignal): Promise<CtlProduct[][]> {
    // The looks go with the colour shown.
    const answer = await ctx.client.ctl({ productId: this.productId, ...(this.variantId ? { variantId: this.variantId } : {}) }, signal);
    const looks = answer.ctlProducts.filter((look) => look.length).slice(0, MAX_LOOKS);
    this.source = answer.sourceProduct;
    this.related = ids(looks.flat());
    this.page = 0;
    this.opened = -1;
    return looks;
  }

  protected onSeen(): void {
    this.send("CTLLoad", false);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    // A new width keeps the first look shown on screen.
    const per = this.fit.value;
    this.page = Math.floor((this.page * this.perPage) / per);
    this.perPage = per;
  }

  protected override updated(changed: PropertyValues<this>): void {
    this.renderRoot.querySelector<HTMLElement>("[part~=list]")?.style.setProperty("--per-page", String(this.perPage));
    const dialog = this.dialog;
    if (changed.has("opened") && dialog && !dialog.open) {
      dialog.showModal();
      dialog.querySelector<HTMLElement>("[part~=close]")!.focus();
    }
  }

  private get dialog(): HTMLDialogElement | null {
    return this.renderRoot.querySelector("dialog");
  }

  /** The fields every CTL event carries, for the carousel's page or the popup's. */
  private data(inPopup: boolean) {
    const related = inPopup ? ids(this.items[this.opened] ?? []) : this.related;
    return { ...this.listing(inPopup), baseProductId: this.source!.productId, relatedProducts: related, totalProducts: related.length };
  }

  /** The listing fields of the page shown: the popup's, else the carousel's. */
  private listing(inPopup: boolean) {
    const [products, pageSize] = inPopup
      ? [slice(this.items[this.opened] ?? [], this.popupPage, POPUP_PAGE_SIZE), POPUP_PAGE_SIZE]
      : [slice(this.items, this.page, this.perPage).flat(), this.perPage];
    return { query: "", productIds: ids(products), facets: [], pageSize, sortBy: "", ...this.context!.locale };
  }

  private send(type: string, inPopup: boolean, extra?: object): void {
    this.context?.track(type, { ...this.data(inPopup), ...extra });
  }

  private turn(inPopup: boolean, to: number): void {
    const from = inPopup ? this.popupPage : this.page;
    if (inPopup) this.popupPage = to;
    else this.page = to;
    this.send(inPopup ? "CTLPopupPageChange" : "CTLPageChange", inPopup, { pageFrom: from + 1, pageTo: to + 1 });
  }

  private onCardClick(event: SfsProductClickEvent, inPopup: boolean): void {
    const productId = event.detail.productId;
    const position = (inPopup ? ids(this.items[this.opened]!) : this.related).indexOf(productId) + 1;
    // The source product's own card is not a product of the look.
    if (!position) return;
    const { internalCategory } = this.items.flat().find((p) => p.productId === productId)!;
    this.send(inPopup ? "CTLPopupProductClick" : "CTLProductClick", inPopup, {
      selectedProduct: { productId, position, internalCategory },
    });
  }

  private open(index: number, opener: HTMLElement): void {
    this.opener = opener;
    this.opened = index;
    this.popupPage = 0;
    this.status = "";
    this.send("CTLViewLookClick", false, { position: index + 1 });
  }

  private close(): void {
    // Closed before the focus moves: the rest of the page is inert while a modal dialog is open.
    this.dialog?.close();
    this.opened = -1;
    this.opener?.focus();
  }

  private onDialogKey(event: KeyboardEvent): void {
    if (event.key === "Escape") {
      // Handled here rather than by the dialog's own cancel, so that focus goes back to the opener either way.
      event.preventDefault();
      this.close();
    }
    if (event.key !== "Tab") return;
    // The cards' links live in their shadow roots: the ends of the tab order are found through them.
    const stops = Array.from(
      this.dialog!.querySelectorAll<HTMLElement>("button, sfs-product-card"),
      (el) => el.shadowRoot?.querySelector<HTMLElement>("[part~=name-link]") ?? el,
    );
    const first = stops[0]!;
    const last = stops[stops.length - 1]!;
    let active = this.shadowRoot!.activeElement;
    active = active?.shadowRoot?.activeElement ?? active;
    if (event.shiftKey ? active === first : active === last) {
      event.preventDefault();
      (event.shiftKey ? last : first).focus();
    }
  }

  private async add(product: CtlProduct, isSource: boolean): Promise<void> {
    const ctx = this.context;
    const hook = ctx?.cart?.();
    const productId = product.productId;
    if (!ctx || !hook || this.adding.has(productId)) return;
    this.adding.add(productId);
    const paid = paidRange(product);
    const price = paid?.first ?? paid?.min ?? 0;
    let taken = false;
    try {
      const item = {
        productId,
        ...(isSource && this.variantId ? { variantId: this.variantId } : {}),
        name: product.name,
        price,
        ...(product.url ? { url: product.url } : {}),
        qty: 1 as const,
      };
      taken = (await hook(item)) !== false;
    } catch {
      // the store's hook failed: not added
    }
    this.adding.delete(productId);
    if (!taken) return;
    this.status = `${product.name}: ${ctx.config.texts.added}`;
    this.added = new Set(this.added).add(productId);
    ctx.track("AddToCart", {
      ...this.listing(true),
      page: this.popupPage + 1,
      totalProducts: (this.items[this.opened] ?? []).length,
      addProductId: productId,
      qty: 1,
      price,
    });
  }

  override render() {
    const ctx = this.context;
    if (!ctx || (!this.loading && !this.items.length)) return nothing;
    const t = ctx.config.texts;
    const per = this.perPage;
    const pages = Math.ceil(this.items.length / per);
    return html`<section part="base" aria-labelledby="${this.uid}-title" aria-busy=${this.loading ? "true" : "false"}>
      <div part="header" class="header">
        <h2 part="title" id="${this.uid}-title">${t.completeTheLook}</h2>
        ${pages > 1 && !this.loading ? pager("", `${this.uid}-list`, t, !this.page, this.page >= pages - 1, (step) => this.turn(false, this.page + step)) : nothing}
      </div>
      <ul part="list" id="${this.uid}-list" @sfs-product-click=${(e: SfsProductClickEvent) => this.onCardClick(e, false)}>
        ${
          this.loading
            ? Array.from({ length: per }, () => html`<li part="look" aria-hidden="true"><div part="skeleton"></div></li>`)
            : slice(this.items, this.page, per).map((look, i) => {
                const n = this.page * per + i + 1;
                return html`<li part="look">
                <ul part="look-products">${this.product(this.source!, true)}${look.map((p) => this.product(p))}</ul>
                <button part="view-look" type="button" aria-haspopup="dialog" @click=${(e: Event) => this.open(n - 1, e.currentTarget as HTMLElement)}>${fillText(t.viewLook, { n })}</button>
              </li>`;
              })
        }
      </ul>
      ${this.loading ? html`<span class="visually-hidden" role="status">${t.loadingLooks}</span>` : this.renderPopup()}
    </section>`;
  }

  private product(p: CtlProduct, isSource = false, cart = false) {
    const ctx = this.context!;
    const t = ctx.config.texts;
    const label = this.added.has(p.productId) ? t.added : t.addToCart;
    return html`<li part=${isSource ? "product source" : "product"}>
      ${isSource ? html`<span part="this-item">${t.thisItem}</span>` : nothing}
      <sfs-product-card part="card" exportparts=${CARD_EXPORT_PARTS} .product=${p} .texts=${t} .priceFormat=${ctx.priceFormat} image-sizes="4rem"></sfs-product-card>
      ${cart ? html`<button part="add-to-cart" type="button" aria-label="${label}: ${p.name}" @click=${() => this.add(p, isSource)}>${label}</button>` : nothing}
    </li>`;
  }

  private renderPopup() {
    const look = this.items[this.opened];
    if (!look) return nothing;
    const t = this.context!.config.texts;
    const cart = !!this.context!.cart?.();
    const pages = Math.ceil(look.length / POPUP_PAGE_SIZE);
    const listId = `${this.uid}-look`;
    return html`<dialog
      part="dialog"
      role="dialog"
      aria-modal="true"
      aria-labelledby="${listId}-title"
      @keydown=${this.onDialogKey}
      @cancel=${(e: Event) => {
        e.preventDefault();
        this.close();
      }}
      @click=${(e: Event) => e.target === e.currentTarget && this.close()}
    >
      <div part="dialog-body">
        <div part="dialog-header" class="header">
          <h2 part="dialog-title" id="${listId}-title">${fillText(t.look, { n: this.opened + 1 })}</h2>
          <button part="close" type="button" aria-label=${t.close} @click=${this.close}>×</button>
        </div>
        <ul part="dialog-list" id=${listId} @sfs-product-click=${(e: SfsProductClickEvent) => this.onCardClick(e, true)}>
          ${this.product(this.source!, true, cart)} ${slice(look, this.popupPage, POPUP_PAGE_SIZE).map((p) => this.product(p, false, cart))}
        </ul>
        ${pages > 1 ? pager("dialog-", listId, t, !this.popupPage, this.popupPage >= pages - 1, (step) => this.turn(true, this.popupPage + step)) : nothing}
        <span class="visually-hidden" role="status">${this.status}</span>
      </div>
    </dialog>`;
  }
}
