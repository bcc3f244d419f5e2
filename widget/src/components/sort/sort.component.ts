import { html, LitElement } from "lit";
import type { SortOption } from "@storefront-search/contract";
import type { SfsSortChangeEvent } from "../../events/sfs-sort-change.ts";
import { emit } from "../shared/emit.ts";
import { sortStyles } from "./sort.styles.ts";

export type { SfsSortChangeEvent };

/**
 * The order of the results: a labelled native select of the store's sort options.
 *
 * @csspart base - The wrapper.
 * @csspart label - The "Sort by" label.
 * @csspart select - The select.
 *
 * @cssproperty --sfs-color-border - The select's border.
 * @cssproperty --sfs-radius-small - The select's corners.
 *
 * @event sfs-sort-change - Another order was chosen: `{ value }` ("" is relevance).
 */
export class SfsSort extends LitElement {
  static override styles = sortStyles;

  static override properties = {
    options: { attribute: false },
    value: {},
    label: {},
  };

  declare options: SortOption[];
  declare value: string;
  declare label: string;

  constructor() {
    super();
    this.options = [];
    this.value = "";
    this.label = "Sort by";
  }

  private onChange(e: Event) {
    const value = (e.target as HTMLSelectElement).value;
    this.value = value;
    emit(this, "sfs-sort-change", { value });
  }

  protected override updated(): void {
    // Set after the options exist (a value bound on the select would be applied before them).
    const select = this.renderRoot.querySelector("select");
    if (select && select.value !== this.value) select.value = this.value;
  }

  override render() {
    return html`<div part="base">
      <label part="label" for="select">${this.label}</label>
      <select part="select" id="select" @change=${this.onChange}>
        ${this.options.map((o) => html`<option value=${o.value} ?selected=${o.value === this.value}>${o.label}</option>`)}
      </select>
    </div>`;
  }
}
