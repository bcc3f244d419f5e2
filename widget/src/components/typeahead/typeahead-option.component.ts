import { html, LitElement, nothing } from "lit";
import type { TypeaheadOption } from "../../core/typeahead-controller.ts";
import { defaultPriceFormat, type PriceFormat } from "../../format/price-format.ts";
import { typeaheadOptionStyles } from "./typeahead-option.styles.ts";

/**
 * One option of the typeahead: a suggested query, a brand, or a product. It lives in the page's light DOM inside
 * `<sfs-typeahead>` (role="option", with an id the input's aria-activedescendant can point at); its content is in
 * its own shadow root.
 *
 * @csspart base - The row.
 * @csspart label - The text (query, brand or product name).
 * @csspart match - The part of the text that matches what was typed.
 * @csspart count - The result count of a query or brand.
 * @csspart image - A product's picture.
 * @csspart text - A product's name and details.
 * @csspart designer - A product's brand.
 * @csspart price - A product's price.
 *
 * @cssproperty --sfs-typeahead-active-background - The active option (keyboard).
 * @cssproperty --sfs-typeahead-hover-background - The option under the pointer.
 * @cssproperty --sfs-typeahead-image-size - Product pictures.
 */
export class SfsTypeaheadOption extends LitElement {
  static override styles = typeaheadOptionStyles;

  static override properties = {
    option: { attribute: false },
    query: { attribute: false },
    priceFormat: { attribute: false },
  };

  declare option: TypeaheadOption | null;
  declare query: string;
  declare priceFormat: PriceFormat;

  constructor() {
    super();
    this.option = null;
    this.query = "";
    this.priceFormat = defaultPriceFormat();
  }

  private highlighted(label: string) {
    const at = this.query ? label.toLowerCase().indexOf(this.query.toLowerCase()) : -1;
    if (at < 0) return label;
    const end = at + this.query.length;
    return html`${label.slice(0, at)}<mark part="match">${label.slice(at, end)}</mark>${label.slice(end)}`;
  }

  override render() {
    const o = this.option;
    if (!o) return nothing;
    if (o.kind !== "product") {
      return html`<div part="base">
        <span part="label">${this.highlighted(o.label)}</span>
        ${o.count ? html`<span part="count" aria-hidden="true">${o.count}</span>` : nothing}
      </div>`;
    }
    const p = o.product;
    const color = p.colors?.[p.defaultColorId ?? ""] ?? Object.values(p.colors ?? {})[0];
    const image = color?.images?.[0];
    const price = this.priceFormat.shown(p);
    return html`<div part="base">
      ${image ? html`<img part="image" src=${image.s ?? image.m ?? image.l ?? ""} alt="" loading="lazy" />` : nothing}
      <span part="text">
        <span part="label">${this.highlighted(p.name)}</span>
        ${p.designer ? html`<span part="designer">${p.designer}</span>` : nothing}
        ${price ? html`<span part="price">${price.current}</span>` : nothing}
      </span>
    </div>`;
  }
}
