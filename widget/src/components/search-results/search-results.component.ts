import { html, LitElement, nothing, type PropertyValues } from "lit";
import type { SearchResponse } from "../../api/types.ts";
import { fillText } from "../../config/widget-config.ts";
import { ContainerWidthController } from "../../core/container-width-controller.ts";
import { SearchController } from "../../core/search-controller.ts";
import { UrlStateController } from "../../core/url-state-controller.ts";
import type { WidgetContext } from "../../core/widget-context.ts";
import type { SfsResultsLoadEvent } from "../../events/sfs-results-load.ts";
import { writeSearchState } from "../../state/search-state.ts";
import { emit } from "../shared/emit.ts";
import { CARD_EXPORT_PARTS, exportParts, FACETS_PARTS, PAGINATION_PARTS, SORT_PARTS } from "../shared/export-parts.ts";
import { searchResultsStyles } from "./search-results.styles.ts";

export type { SfsResultsLoadEvent };

const SKELETON_CARDS = 8;
const facetsParts = `facets, ${exportParts("facets", FACETS_PARTS)}`;
const sortParts = `sort, ${exportParts("sort", SORT_PARTS)}`;
const paginationParts = `pagination, ${exportParts("pagination", PAGINATION_PARTS)}`;

/**
 * The results page in the store's target div: result count, product grid, facets, sort, pagination, "did you
 * mean", the fallback notice, and the loading, empty and error states. Below 768px of its own width the facets
 * move into a drawer opened by a "Filters" button. The state is in the page address; the logic in its controllers
 * (UrlStateController, SearchController); this element renders and routes its children's events to them.
 *
 * @csspart base - The layout grid (sidebar and main column).
 * @csspart sidebar - The facet column (wide layout).
 * @csspart main - The main column.
 * @csspart toolbar - Count, filter button and sort.
 * @csspart count - The result count (`aria-live="polite"`).
 * @csspart filter-button - Opens the facet drawer (narrow layout).
 * @csspart notice - The fallback notice ("showing results for …").
 * @csspart did-you-mean - The spelling suggestions.
 * @csspart suggestion-link - One suggested query.
 * @csspart grid - The product list.
 * @csspart skeleton - A placeholder card while loading.
 * @csspart empty - The "no products found" state.
 * @csspart error - The error state.
 * @csspart retry-button - "Try again".
 * @csspart drawer - The facet dialog (narrow layout).
 * @csspart drawer-header - Its title row.
 * @csspart drawer-title - Its title.
 * @csspart drawer-close - Its close button.
 * @csspart card - Each `<sfs-product-card>`; its parts are forwarded as `card-<part>` (card-name, card-price, …).
 * @csspart facets - The `<sfs-facets>`; its parts as `facets-<part>`.
 * @csspart sort - The `<sfs-sort>`; its parts as `sort-<part>`.
 * @csspart pagination - The `<sfs-pagination>`; its parts as `pagination-<part>`.
 *
 * @cssproperty --sfs-color-accent - Links, buttons, selected states (all components).
 * @cssproperty --sfs-color-text - Text.
 * @cssproperty --sfs-color-muted - Secondary text.
 * @cssproperty --sfs-color-border - Borders.
 * @cssproperty --sfs-color-surface - Image boxes, notices, chips.
 * @cssproperty --sfs-color-background - Buttons, the drawer.
 * @cssproperty --sfs-font-family - Font (default: the page's).
 * @cssproperty --sfs-sidebar-width - Facet column width.
 * @cssproperty --sfs-card-min-width - Narrowest card in the grid.
 * @cssproperty --sfs-grid-gap - Gap between cards.
 * @cssproperty --sfs-skeleton-color - Placeholder colour.
 *
 * @event sfs-results-load - Results were shown: `{ query, totalProductCount, page }`.
 */
export class SfsSearchResults extends LitElement {
  static override styles = searchResultsStyles;

  static override properties = {
    context: { attribute: false },
    narrow: { type: Boolean, reflect: true },
  };

  declare context: WidgetContext | null;
  /** Narrow layout (facets in a drawer); follows the element's width. */
  declare narrow: boolean;

  url: UrlStateController | null = null;
  search: SearchController | null = null;
  /** Measures the element's width for the narrow layout. */
  readonly layout = new ContainerWidthController(this, (width) => width < 768, false);
  private announced: SearchResponse | null = null;
  private focusCountOnLoad = false;

  constructor() {
    super();
    this.context = null;
    this.narrow = false;
    // The children's events bubble out of their shadow roots to this element (composed): route them here.
    this.addEventListener("sfs-facet-change", (e) => this.url?.toggleFacet(e.detail.key, e.detail.value, e.detail.selected));
    this.addEventListener("sfs-facets-clear", () => this.url?.setFacets([]));
    this.addEventListener("sfs-sort-change", (e) => this.url?.setSort(e.detail.value));
    this.addEventListener("sfs-page-change", (e) => this.onPageChange(e.detail.page));
    this.addEventListener("sfs-product-click", (e) => this.search?.trackProductClick(e.detail.productId));
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (!this.search && this.context) this.createControllers(this.context);
    this.narrow = this.layout.value;
    if (changed.has("narrow") && !this.narrow) this.drawer?.close?.();
  }

  private createControllers(ctx: WidgetContext) {
    this.search = new SearchController(this, {
      search: (request, signal) => ctx.client.search(request, signal),
      track: (type, data) => ctx.track(type, data),
      pageSize: ctx.config.pageSize,
      locale: ctx.locale,
      ids: () => ctx.ids(),
    });
    // Created second: its first read (on connect) goes to the search controller.
    this.url = new UrlStateController(this, {
      env: ctx.urlEnv,
      queryParam: ctx.config.queryParam,
      onChange: (state) => this.search?.request(state),
    });
  }

  private get drawer(): HTMLDialogElement | null {
    return this.renderRoot?.querySelector?.("dialog") ?? null;
  }

  protected override updated(): void {
    const s = this.search;
    if (s?.status === "complete" && s.result && s.result !== this.announced && s.resultState) {
      this.announced = s.result;
      emit(this, "sfs-results-load", { query: s.resultState.query, totalProductCount: s.result.totalProductCount, page: s.resultState.page });
      if (this.focusCountOnLoad) {
        this.focusCountOnLoad = false;
        const count = this.renderRoot.querySelector<HTMLElement>("[part~=count]");
        count?.focus({ preventScroll: true });
        this.scrollIntoView?.({ block: "start" });
      }
    }
  }

  private onPageChange(page: number) {
    this.focusCountOnLoad = true;
    this.url?.setPage(page);
  }

  private suggestionHref(query: string): string {
    const ctx = this.context!;
    return writeSearchState(ctx.urlEnv.location.href, { query, facets: [], sort: this.url?.state.sort ?? "", page: 1 }, ctx.config.queryParam);
  }

  override render() {
    const ctx = this.context;
    const s = this.search;
    if (!ctx || !s || !this.url || s.status === "idle") return nothing;
    const t = ctx.config.texts;
    const state = this.url.state;
    const result = s.result;
    const loading = s.status === "pending";
    const facets = result?.facets ?? [];
    const countText = loading && !result ? t.loading : result && s.status !== "error" ? fillText(t.results, { count: new Intl.NumberFormat(ctx.config.locale).format(result.totalProductCount) }) : "";
    const facetsEl = html`<sfs-facets
      part="facets"
      exportparts=${facetsParts}
      .facets=${facets}
      .selected=${state.facets}
      .texts=${t}
      .priceFormat=${ctx.priceFormat}
    ></sfs-facets>`;
    const showFacets = facets.length > 0 || state.facets.length > 0;
    return html`
      <div part="base">
        ${!this.narrow && showFacets ? html`<aside part="sidebar" aria-label=${t.filters}>${facetsEl}</aside>` : nothing}
        <div part="main">
          <div part="toolbar">
            <p part="count" aria-live="polite" tabindex="-1">${countText}</p>
            ${this.narrow && showFacets
              ? html`<button part="filter-button" type="button" aria-haspopup="dialog" @click=${() => this.drawer?.showModal()}>
                  ${t.filters}${state.facets.length ? ` (${state.facets.length})` : ""}
                </button>`
              : nothing}
            ${ctx.config.sortOptions.length > 1 && result?.totalProductCount
              ? html`<sfs-sort part="sort" exportparts=${sortParts} .options=${ctx.config.sortOptions} .value=${state.sort} .label=${t.sortBy}></sfs-sort>`
              : nothing}
          </div>
          ${this.renderBody(loading)}
        </div>
      </div>
      ${this.narrow && showFacets
        ? html`<dialog part="drawer" aria-labelledby="drawer-title">
            <div part="drawer-header">
              <h2 part="drawer-title" id="drawer-title">${t.filters}</h2>
              <button part="drawer-close" type="button" @click=${() => this.drawer?.close()}>${t.close}</button>
            </div>
            ${facetsEl}
          </dialog>`
        : nothing}
    `;
  }

  private renderBody(loading: boolean) {
    const ctx = this.context!;
    const s = this.search!;
    const t = ctx.config.texts;
    if (s.status === "error") {
      return html`<div part="error" role="alert">
        <p>${t.error}</p>
        <button part="retry-button" type="button" @click=${() => s.retry()}>${t.retry}</button>
      </div>`;
    }
    const result = s.result;
    if (!result) {
      return html`<ul part="grid" aria-busy="true" aria-label=${t.loading}>
        ${Array.from({ length: Math.min(SKELETON_CARDS, ctx.config.pageSize) }, () => html`<li part="skeleton" aria-hidden="true"><span></span><span></span><span></span></li>`)}
      </ul>`;
    }
    const state = s.resultState!;
    const suggestions = (result.spellSuggestions ?? []).filter((q) => q.toLowerCase() !== state.query.toLowerCase());
    const didYouMean = suggestions.length
      ? html`<p part="did-you-mean">
          ${t.didYouMean}
          ${suggestions.map(
            (q, i) => html`${i ? ", " : ""}<a
                part="suggestion-link"
                href=${this.suggestionHref(q)}
                @click=${(e: MouseEvent) => {
                  if (e.metaKey || e.ctrlKey || e.shiftKey || e.button) return;
                  e.preventDefault();
                  this.url?.setQuery(q);
                }}
                >${q}</a
              >`,
          )}?
        </p>`
      : nothing;
    if (!result.totalProductCount) {
      return html`<div part="empty">
          <p>${fillText(t.noResults, { query: state.query })}</p>
        </div>
        ${didYouMean}`;
    }
    const notice =
      result.fallback && result.query
        ? html`<p part="notice">${fillText(t.fallback, { query: state.query, used: result.query })}</p>`
        : nothing;
    return html`${notice} ${didYouMean}
      <ul part="grid" aria-busy=${loading ? "true" : "false"}>
        ${result.products.map(
          (p) => html`<li>
            <sfs-product-card part="card" exportparts=${CARD_EXPORT_PARTS} .product=${p} .texts=${t} .priceFormat=${ctx.priceFormat}></sfs-product-card>
          </li>`,
        )}
      </ul>
      <sfs-pagination part="pagination" exportparts=${paginationParts} .page=${state.page} .pageCount=${s.lastPage} .texts=${t}></sfs-pagination>`;
  }
}
