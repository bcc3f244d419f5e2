import { html, LitElement, nothing } from "lit";
import { type Facet, type FacetValue, type QueryFacet, DEFAULT_TEXTS, type Texts, type FacetSelection } from "@storefront-search/contract";
import { fillText } from "../../config/resolve-config.ts";
import type { SfsFacetChangeEvent } from "../../events/sfs-facet-change.ts";
import type { SfsFacetsClearEvent } from "../../events/sfs-facets-clear.ts";
import { defaultPriceFormat, type PriceFormat } from "../../format/price-format.ts";
import { emit } from "../shared/emit.ts";
import { facetsStyles } from "./facets.styles.ts";

export type { SfsFacetChangeEvent, SfsFacetsClearEvent };

/** Values shown per facet before "show more". */
export const VISIBLE_VALUES = 8;
const PRICE = "price";

/** A list longer than this gets a box that filters its values. */
const FILTER_FROM = 10;

/**
 * The facet panel, in the store's order and names (its `facets` setting, answered with the search): the selected
 * values as removable chips with "clear all", then one collapsible group per facet (the first `open` groups open,
 * and any with a selected value) of checkboxes with result counts. A group shows its first `shownValues` values
 * and every selected one until "show more"; the whole list then scrolls within a bounded height, and a list of
 * more than ten values gets a box that filters it. Price ranges are values too.
 *
 * @csspart base - The panel.
 * @csspart selection - The selected values and "clear all".
 * @csspart selected - The list of selected values.
 * @csspart chip - One selected value.
 * @csspart chip-label - Its text.
 * @csspart chip-remove - The button that removes it.
 * @csspart clear-all - The "clear all" button.
 * @csspart facet - One facet (a group).
 * @csspart facet-title - Its heading (an `<h3>`).
 * @csspart facet-toggle - The button in the heading that opens and collapses the group (`aria-expanded`).
 * @csspart facet-marker - The open/collapsed sign in the toggle.
 * @csspart facet-selected-count - How many of its values are selected, in the toggle.
 * @csspart facet-body - What a collapsed group hides: the filter box, the values, "show more".
 * @csspart filter - The box that filters a long list of values.
 * @csspart values - The list of its values (scrolls when all are shown).
 * @csspart value - One value (a `<label>`).
 * @csspart checkbox - The checkbox of a value.
 * @csspart value-label - The value's name.
 * @csspart count - The value's result count.
 * @csspart no-values - "No match" when the filter box matches nothing.
 * @csspart show-more - The "show more"/"show less" button.
 *
 * @event sfs-facet-change - A value was checked or unchecked: `{ key, value, selected }`.
 * @event sfs-facets-clear - "Clear all" was pressed.
 */
export class SfsFacets extends LitElement {
  static override styles = facetsStyles;

  static override properties = {
    facets: { attribute: false },
    selected: { attribute: false },
    implied: { attribute: false },
    texts: { attribute: false },
    priceFormat: { attribute: false },
    open: { type: Number },
    expanded: { state: true },
    toggled: { state: true },
    filters: { state: true },
  };

  declare facets: Facet[];
  declare selected: FacetSelection[];
  /** Selections the query's words made ("men's"): shown checked and as chips; unchecking one asks to drop its words. */
  declare implied: QueryFacet[];
  declare texts: Texts;
  declare priceFormat: PriceFormat;
  /** Groups open at first (in order); the others start collapsed unless a value of theirs is selected. */
  declare open: number;
  /** Keys of the facets showing all their values. */
  declare expanded: ReadonlySet<string>;
  /** Keys of the groups the shopper opened or collapsed (the opposite of how they started). */
  declare toggled: ReadonlySet<string>;
  /** What the shopper typed in each filter box. */
  declare filters: Readonly<Record<string, string>>;

  constructor() {
    super();
    this.facets = [];
    this.selected = [];
    this.implied = [];
    this.texts = DEFAULT_TEXTS;
    this.priceFormat = defaultPriceFormat();
    this.open = 4;
    this.expanded = new Set();
    this.toggled = new Set();
    this.filters = {};
  }

  /** The values chosen; an exclusion a shared link carries ("!designer:Nike") is searched but has no checkbox. */
  private get chosen(): FacetSelection[] {
    return this.selected.filter((s) => !s.exclude);
  }

  private isSelected(key: string, value: string): boolean {
    return (
      this.chosen.some((s) => s.key === key && s.value === value) || this.implied.some((f) => f.key === key && f.values.includes(value))
    );
  }

  /** What the chips show: the shopper's selections, then those the query's words made. */
  private get chips(): FacetSelection[] {
    return [...this.chosen, ...this.implied.flatMap((f) => f.values.map((value) => ({ key: f.key, value })))];
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

  override render() {
    return html`<div part="base">${this.renderSelected()} ${this.facets.filter((f) => f.values.length).map((f, i) => this.renderFacet(f, i))}</div>`;
  }

  private renderSelected() {
    const chips = this.chips;
    if (!chips.length) return nothing;
    const t = this.texts;
    return html`<div part="selection">
      <ul part="selected" aria-label=${t.selectedFilters}>
        ${chips.map((s) => {
          const facet = this.facets.find((f) => f.key === s.key);
          const name = this.valueName(
            s.key,
            s.value,
            facet?.values.find((v) => facetValueKey(v) === s.value),
          );
          return html`<li part="chip">
            <span part="chip-label">${this.facetName(facet ?? { key: s.key })}: ${name}</span>
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

  private renderFacet(facet: Facet, index: number) {
    const key = facet.key;
    const id = key.replace(/[^\w-]/g, "_");
    const name = this.facetName(facet);
    const chosen = facet.values.filter((v) => this.isSelected(key, facetValueKey(v))).length;
    const open = (index < this.open || chosen > 0) !== this.toggled.has(key);
    return html`<div part="facet" role="group" aria-labelledby="title-${id}" data-key=${key}>
      <h3 part="facet-title" id="title-${id}">
        <button part="facet-toggle" type="button" aria-expanded=${open ? "true" : "false"} aria-controls="body-${id}" @click=${() => (this.toggled = flip(this.toggled, key))}>
          <span>${name}</span>
          ${chosen ? html`<span part="facet-selected-count">${chosen}</span>` : nothing}
          <span part="facet-marker" aria-hidden="true">${open ? "−" : "+"}</span>
        </button>
      </h3>
      <div part="facet-body" id="body-${id}" ?hidden=${!open}>${open ? this.renderValues(facet, name) : nothing}</div>
    </div>`;
  }

  /** A group's content, drawn only while it is open: a broad query's collapsed groups cost no DOM. */
  private renderValues(facet: Facet, name: string) {
    const t = this.texts;
    const key = facet.key;
    const all = this.expanded.has(key);
    const shown = facet.shownValues ?? VISIBLE_VALUES;
    const filter = (this.filters[key] ?? "").trim().toLowerCase();
    const named = facet.values.map((v) => ({ v, value: facetValueKey(v), label: this.valueName(key, facetValueKey(v), v) }));
    // Cut to the first `shown`, but a selected value stays in sight wherever it ranks.
    const values = filter
      ? named.filter((n) => n.label.toLowerCase().includes(filter))
      : all
        ? named
        : named.filter((n, i) => i < shown || this.isSelected(key, n.value));
    return html`${
      facet.values.length > FILTER_FROM
        ? html`<input
            part="filter"
            type="search"
            aria-label=${fillText(t.filterValues, { facet: name })}
            placeholder=${fillText(t.filterValues, { facet: name })}
            .value=${this.filters[key] ?? ""}
            @input=${(e: Event) => (this.filters = { ...this.filters, [key]: (e.target as HTMLInputElement).value })}
          />`
        : nothing
    }
      <ul part="values" class=${all || filter ? "all" : ""}>
        ${values.map(
          ({ value, label, v }) => html`<li>
            <label part="value">
              <input
                part="checkbox"
                type="checkbox"
                .checked=${this.isSelected(key, value)}
                @change=${(e: Event) => this.toggle(key, value, (e.target as HTMLInputElement).checked)}
              />
              <span part="value-label">${label}</span>
              <span part="count">(${v.count})</span>
            </label>
          </li>`,
        )}
      </ul>
      ${filter && !values.length ? html`<p part="no-values">${t.noValues}</p>` : nothing}
      ${
        facet.values.length > shown && !filter
          ? html`<button part="show-more" type="button" aria-expanded=${all ? "true" : "false"} @click=${() => (this.expanded = flip(this.expanded, key))}>
            ${all ? t.showLess : t.showMore}
          </button>`
          : nothing
      }`;
  }
}

/** `set` with `key` added, or removed when it was in. */
function flip(set: ReadonlySet<string>, key: string): ReadonlySet<string> {
  const next = new Set(set);
  if (!next.delete(key)) next.add(key);
  return next;
}

/** The value a selection sends for a facet value: its key, or "lb-ub" for a range. */
export function facetValueKey(v: FacetValue): string {
  if (v.key) return v.key;
  return `${v.lb ?? ""}-${v.ub ?? ""}`;
}
