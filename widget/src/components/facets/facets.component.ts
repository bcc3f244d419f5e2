import { html, LitElement, nothing } from "lit";
import type { Facet, FacetValue } from "../../api/types.ts";
import { DEFAULT_TEXTS, fillText, type Texts } from "../../config/widget-config.ts";
import type { SfsFacetChangeEvent } from "../../events/sfs-facet-change.ts";
import type { SfsFacetsClearEvent } from "../../events/sfs-facets-clear.ts";
import { createPriceFormat, type PriceFormat } from "../../format/price-format.ts";
import type { FacetSelection } from "../../state/facet-param.ts";
import { emit } from "../shared/emit.ts";
import { facetsStyles } from "./facets.styles.ts";

export type { SfsFacetChangeEvent, SfsFacetsClearEvent };

/** Values shown per facet before "show more". */
export const VISIBLE_VALUES = 8;
const PRICE = "price";

/**
 * The facet panel: the selected values as removable chips with "clear all", then one group of checkboxes per
 * facet (value and result count), the first eight values shown until "show more". Price ranges are values too.
 *
 * @csspart base - The panel.
 * @csspart selected - The list of selected values.
 * @csspart chip - One selected value.
 * @csspart chip-remove - The button that removes it.
 * @csspart clear-all - The "clear all" button.
 * @csspart facet - One facet (a `<fieldset>`).
 * @csspart facet-title - Its name (the `<legend>`).
 * @csspart values - The list of its values.
 * @csspart value - One value (a `<label>`).
 * @csspart checkbox - The checkbox of a value.
 * @csspart value-label - The value's name.
 * @csspart count - The value's result count.
 * @csspart show-more - The "show more"/"show less" button.
 *
 * @cssproperty --sfs-color-accent - Checkboxes and buttons.
 * @cssproperty --sfs-color-border - Separators and chips.
 * @cssproperty --sfs-color-muted - Counts.
 * @cssproperty --sfs-chip-background - Chips.
 *
 * @event sfs-facet-change - A value was checked or unchecked: `{ key, value, selected }`.
 * @event sfs-facets-clear - "Clear all" was pressed.
 */
export class SfsFacets extends LitElement {
  static override styles = facetsStyles;

  static override properties = {
    facets: { attribute: false },
    selected: { attribute: false },
    texts: { attribute: false },
    priceFormat: { attribute: false },
    expanded: { state: true },
  };

  declare facets: Facet[];
  declare selected: FacetSelection[];
  declare texts: Texts;
  declare priceFormat: PriceFormat;
  /** Keys of the facets showing all their values. */
  declare expanded: ReadonlySet<string>;

  constructor() {
    super();
    this.facets = [];
    this.selected = [];
    this.texts = DEFAULT_TEXTS;
    this.priceFormat = createPriceFormat("en", { code: "INR" });
    this.expanded = new Set();
  }

  private isSelected(key: string, value: string): boolean {
    return this.selected.some((s) => s.key === key && s.value === value);
  }

  private facetName(facet: Pick<Facet, "key" | "name">): string {
    return facet.name ?? (facet.key === PRICE ? this.texts.price : facet.key);
  }

  /** A price range "500-1000" reads as "₹500 – ₹1,000"; an open bound as "₹500+" or "– ₹1,000". */
  private valueName(key: string, value: string, facetValue?: FacetValue): string {
    if (key !== PRICE) return facetValue?.name ?? value;
    const [lb, ub] = value.split("-").map((b) => (b === "" || b === undefined ? undefined : Number(b)));
    const fmt = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? "" : this.priceFormat.amount(n));
    if (lb !== undefined && ub !== undefined) return `${fmt(lb)} – ${fmt(ub)}`;
    return lb !== undefined ? `${fmt(lb)}+` : `– ${fmt(ub)}`;
  }

  private toggle(key: string, value: string, selected: boolean) {
    emit(this, "sfs-facet-change", { key, value, selected });
  }

  private toggleExpanded(key: string) {
    const next = new Set(this.expanded);
    if (!next.delete(key)) next.add(key);
    this.expanded = next;
  }

  override render() {
    return html`<div part="base">${this.renderSelected()} ${this.facets.filter((f) => f.values.length).map((f) => this.renderFacet(f))}</div>`;
  }

  private renderSelected() {
    if (!this.selected.length) return nothing;
    const t = this.texts;
    return html`<div>
      <ul part="selected" aria-label=${t.selectedFilters}>
        ${this.selected.map((s) => {
          const facet = this.facets.find((f) => f.key === s.key);
          const name = this.valueName(s.key, s.value, facet?.values.find((v) => facetValueKey(v) === s.value));
          return html`<li part="chip">
            <span>${this.facetName(facet ?? { key: s.key })}: ${name}</span>
            <button
              part="chip-remove"
              type="button"
              aria-label=${fillText(t.removeFilter, { value: name })}
              @click=${() => this.toggle(s.key, s.value, false)}
            >
              <span aria-hidden="true">×</span>
            </button>
          </li>`;
        })}
      </ul>
      <button part="clear-all" type="button" @click=${() => emit(this, "sfs-facets-clear", {})}>${t.clearAll}</button>
    </div>`;
  }

  private renderFacet(facet: Facet) {
    const open = this.expanded.has(facet.key);
    const shown = facet.shownValues ?? VISIBLE_VALUES;
    const values = open ? facet.values : facet.values.slice(0, shown);
    const listId = `values-${facet.key.replace(/[^\w-]/g, "_")}`;
    return html`<fieldset part="facet" data-key=${facet.key}>
      <legend part="facet-title">${this.facetName(facet)}</legend>
      <ul part="values" id=${listId}>
        ${values.map((v) => {
          const value = facetValueKey(v);
          const checked = this.isSelected(facet.key, value);
          return html`<li>
            <label part="value">
              <input
                part="checkbox"
                type="checkbox"
                .checked=${checked}
                @change=${(e: Event) => this.toggle(facet.key, value, (e.target as HTMLInputElement).checked)}
              />
              <span part="value-label">${this.valueName(facet.key, value, v)}</span>
              <span part="count">(${v.count})</span>
            </label>
          </li>`;
        })}
      </ul>
      ${facet.values.length > shown
        ? html`<button part="show-more" type="button" aria-expanded=${open ? "true" : "false"} aria-controls=${listId} @click=${() => this.toggleExpanded(facet.key)}>
            ${open ? this.texts.showLess : this.texts.showMore}
          </button>`
        : nothing}
    </fieldset>`;
  }
}

/** The value a selection sends for a facet value: its key, or "lb-ub" for a range. */
export function facetValueKey(v: FacetValue): string {
  if (v.key) return v.key;
  return `${v.lb ?? ""}-${v.ub ?? ""}`;
}
