import { html, LitElement, nothing, type PropertyValues } from "lit";
import { type ColorVariation, type SearchProduct, DEFAULT_TEXTS, type Texts } from "@storefront-search/contract";
import { fillText } from "../../config/resolve-config.ts";
import type { SfsColorSelectEvent } from "../../events/sfs-color-select.ts";
import type { SfsProductClickEvent } from "../../events/sfs-product-click.ts";
import { defaultPriceFormat, type PriceFormat } from "../../format/price-format.ts";
import { emit } from "../shared/emit.ts";
import { productCardStyles } from "./product-card.styles.ts";

export type { SfsColorSelectEvent, SfsProductClickEvent };

const MAX_SWATCHES = 8;

/**
 * One product of the results: image, designer, name, price, rating, colour swatches and badges.
 *
 * @csspart base - The card (an `<article>`).
 * @csspart image-link - The link around the image.
 * @csspart image - The product image (`srcset` with the s/m/l sizes).
 * @csspart badges - The list of badges over the image.
 * @csspart badge - One badge (from `customUserData.badges`).
 * @csspart pinned-badge - The badge of a product a merchandising rule pinned (with `markPinned`; also `badge`).
 * @csspart designer - The brand.
 * @csspart name - The product name (a heading), clamped to two lines (the full name is its link's title).
 * @csspart name-link - The link of the name.
 * @csspart price - The price line.
 * @csspart sale-price - The price paid when reduced (also has `current-price`).
 * @csspart current-price - The price paid.
 * @csspart original-price - The earlier price, struck through.
 * @csspart rating - The rating line.
 * @csspart rating-stars - The star glyph of the rating.
 * @csspart swatches - The list of colour swatches.
 * @csspart swatch - One swatch button (`aria-pressed="true"` when shown).
 * @csspart swatch-image - The swatch picture.
 * @csspart swatch-label - The colour name when there is no swatch picture.
 *
 * @cssproperty --sfs-color-accent - Badges and the chosen swatch.
 * @cssproperty --sfs-color-sale - A reduced price.
 * @cssproperty --sfs-color-muted - Designer, rating, original price.
 * @cssproperty --sfs-color-rating - The star.
 * @cssproperty --sfs-image-aspect-ratio - Image box shape (default 3 / 4).
 * @cssproperty --sfs-image-fit - object-fit of the image (default cover).
 * @cssproperty --sfs-radius - Corner radius.
 * @cssproperty --sfs-swatch-size - Swatch size.
 *
 * @event sfs-product-click - A product link was followed: `{ productId, url }`.
 * @event sfs-color-select - A swatch was chosen: `{ productId, colorId }`.
 */
export class SfsProductCard extends LitElement {
  static override styles = productCardStyles;

  static override properties = {
    product: { attribute: false },
    texts: { attribute: false },
    priceFormat: { attribute: false },
    imageSizes: { attribute: "image-sizes" },
    pinned: { type: Boolean },
    colorId: { state: true },
  };

  declare product: SearchProduct | null;
  declare texts: Texts;
  declare priceFormat: PriceFormat;
  /** The `sizes` attribute of the image: how wide a card is drawn. */
  declare imageSizes: string;
  /** A merchandising rule pinned it and the store marks such products. */
  declare pinned: boolean;
  declare colorId: string | null;

  constructor() {
    super();
    this.product = null;
    this.texts = DEFAULT_TEXTS;
    this.priceFormat = defaultPriceFormat();
    this.imageSizes = "(min-width: 1024px) 22vw, (min-width: 768px) 30vw, 50vw";
    this.pinned = false;
    this.colorId = null;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has("product")) this.colorId = this.product?.defaultColorId ?? Object.keys(this.product?.colors ?? {})[0] ?? null;
  }

  private get color(): ColorVariation | undefined {
    return this.colorId ? this.product?.colors?.[this.colorId] : undefined;
  }

  private get href(): string {
    return this.color?.productUrl ?? this.product?.url ?? "#";
  }

  private onLinkClick() {
    if (this.product) emit(this, "sfs-product-click", { productId: this.product.productId, url: this.href });
  }

  private chooseColor(colorId: string) {
    this.colorId = colorId;
    if (this.product) emit(this, "sfs-color-select", { productId: this.product.productId, colorId });
  }

  override render() {
    const p = this.product;
    if (!p) return nothing;
    const image = this.color?.images?.[0] ?? Object.values(p.colors ?? {}).find((c) => c.images?.length)?.images?.[0];
    const srcset = image
      ? [image.s && `${image.s} 200w`, image.m && `${image.m} 400w`, image.l && `${image.l} 800w`].filter(Boolean).join(", ")
      : "";
    const priced = this.color?.price || this.color?.promoPrice ? this.color : p;
    const price = this.priceFormat.shown(priced!);
    const badges = [...(this.pinned ? [this.texts.pinned] : []), ...(p.customUserData?.badges ?? [])];
    return html`
      <article part="base">
        <a part="image-link" href=${this.href} tabindex="-1" aria-hidden="true" @click=${this.onLinkClick}>
          ${
            image
              ? html`<img
                part="image"
                src=${image.m ?? image.s ?? image.l ?? ""}
                srcset=${srcset || nothing}
                sizes=${srcset ? this.imageSizes : nothing}
                alt=""
                loading="lazy"
                decoding="async"
              />`
              : nothing
          }
          ${badges.length ? html`<span part="badges">${badges.map((b, i) => html`<span part=${this.pinned && i === 0 ? "badge pinned-badge" : "badge"}>${b}</span>`)}</span>` : nothing}
        </a>
        ${p.designer ? html`<p part="designer">${p.designer}</p>` : nothing}
        <h3 part="name"><a part="name-link" href=${this.href} title=${p.name} @click=${this.onLinkClick}>${p.name}</a></h3>
        ${price ? this.renderPrice(price.current, price.original) : nothing} ${this.renderRating()}
        ${badges.length ? html`<span class="visually-hidden">${badges.join(", ")}</span>` : nothing} ${this.renderSwatches()}
      </article>
    `;
  }

  private renderPrice(current: string, original?: string) {
    if (!original) return html`<p part="price"><span part="current-price">${current}</span></p>`;
    return html`<p part="price">
      <span part="current-price sale-price">${current}</span>
      <s part="original-price"><span class="visually-hidden">${this.texts.originalPrice}: </span>${original}</s>
    </p>`;
  }

  private renderRating() {
    const pop = this.product?.productPopularity;
    if (pop?.type !== "STAR") return nothing;
    const { overallRating, maxRating, reviewCount } = pop.data;
    if (typeof overallRating !== "number" || !maxRating) return nothing;
    const rating = Math.round(overallRating * 10) / 10;
    const label = fillText(this.texts.rating, { rating, max: maxRating });
    const reviews = reviewCount ? fillText(this.texts.reviews, { count: reviewCount }) : "";
    return html`<p part="rating" role="img" aria-label=${reviews ? `${label}, ${reviews}` : label}>
      <span part="rating-stars">★</span> ${rating}/${maxRating}${reviewCount ? ` (${reviewCount})` : ""}
    </p>`;
  }

  private renderSwatches() {
    const colors = Object.entries(this.product?.colors ?? {});
    if (colors.length < 2) return nothing;
    return html`<ul part="swatches" aria-label=${this.texts.colors}>
      ${colors.slice(0, MAX_SWATCHES).map(
        ([id, c]) => html`<li>
          <button
            part="swatch"
            type="button"
            aria-pressed=${id === this.colorId ? "true" : "false"}
            aria-label=${c.name || id}
            title=${c.name || id}
            @click=${() => this.chooseColor(id)}
          >
            ${
              c.swatch
                ? html`<img part="swatch-image" src=${c.swatch} alt="" loading="lazy" />`
                : html`<span part="swatch-label" aria-hidden="true">${(c.name || id).slice(0, 3)}</span>`
            }
          </button>
        </li>`,
      )}
    </ul>`;
  }
}
