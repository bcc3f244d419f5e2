import { html, LitElement, nothing, type PropertyValues } from "lit";
import type { Banner, SearchResponse, FacetSelection } from "@storefront-search/contract";
import { fillText } from "../../config/resolve-config.ts";
import { ContainerWidthController } from "../../core/container-width-controller.ts";
import { bannersOf, safeUrl } from "../../core/rule-content.ts";
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
 * @csspart base - The layout grid: the header over the facet column and the main column.
 * @csspart skip-link - "Skip to results": past the header and the facets (shown when focused).
 * @csspart header - The heading and the toolbar.
 * @csspart heading - "Results for “…”" (an `<h2>`).
 * @csspart sidebar - The facet column (wide layout).
 * @csspart facets-skeleton - The facet column's placeholder while the first results load.
 * @csspart main - The main column: results or a state (empty, error), full width without facets.
 * @csspart state - The main column when it holds the empty or the error state.
 * @csspart toolbar - The filter button and the sort, at the end of the header.
 * @csspart count - The result count (`aria-live="polite"`).
 * @csspart filter-button - Opens the facet drawer (narrow layout).
 * @csspart filter-count - The number of selected filters on the filter button.
 * @csspart notice - The fallback notice ("no exact matches…"), and the correction's ("showing results for …").
 * @csspart corrected - The correction's notice ("Showing results for “jeans”."), with the way back to the words.
 * @csspart search-instead - "Search instead for “jeens”": the words as typed, uncorrected.
 * @csspart did-you-mean - The spelling suggestions.
 * @csspart banners - The banners of the store's merchandising rules, over the results (a labelled region).
 * @csspart banner - One banner; a link when the rule gives one.
 * @csspart banner-image - Its image.
 * @csspart banner-title - Its title.
 * @csspart banner-text - Its text.
 * @csspart redirecting - "Taking you to …", while a rule's redirect is followed.
 * @csspart suggestion-link - One suggested query.
 * @csspart grid - The product list.
 * @csspart skeleton - A placeholder card while loading.
 * @csspart skeleton-bar - A bar of a placeholder.
 * @csspart empty - The "no products found" state.
 * @csspart message - The text of the empty or error state.
 * @csspart clear-filters - "Clear filters" in the empty state (when filters are selected).
 * @csspart popular-title - "Popular searches" and "Popular categories" in the empty state.
 * @csspart popular - Each list.
 * @csspart popular-link - One popular query.
 * @csspart category-link - One of the store's popular categories (the empty state's second list).
 * @csspart error - The error state.
 * @csspart retry-button - "Try again".
 * @csspart drawer - The facet dialog (narrow layout).
 * @csspart drawer-header - Its title row.
 * @csspart drawer-title - Its title.
 * @csspart drawer-close - Its close button.
 * @csspart drawer-footer - Its bottom bar.
 * @csspart drawer-apply - "Show N results": closes the drawer.
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
  /** The answer whose redirect was followed: each answer sends the shopper on once. */
  private redirected: SearchResponse | null = null;
  private focusCountOnLoad = false;
  /**
   * The page's first answer is drawn in two frames: the cards that replace the placeholders first, then the
   * rest of the cards, the facets and the pagination. The first cards show sooner, and nothing that is already
   * drawn moves (the rest goes below them, the facets into their placeholder column).
   */
  private firstFrame: "due" | "drawing" | "done" = "due";

  constructor() {
    super();
    this.context = null;
    this.narrow = false;
    // The children's events bubble out of their shadow roots to this element (composed): route them here.
    this.addEventListener("sfs-facet-change", (e) => {
      const implied = this.implied(e.detail.key, e.detail.value);
      // A value the query's words selected is taken back by searching without those words.
      if (implied && !e.detail.selected)
        this.url?.setQuery(withoutWords(this.url.state.query, implied.words), false, this.url.state.facets);
      else this.url?.toggleFacet(e.detail.key, e.detail.value, e.detail.selected);
    });
    this.addEventListener("sfs-facets-clear", () => {
      const words = this.search?.result?.queryFacets ?? [];
      if (words.length) this.url?.setQuery(words.reduce((q, f) => withoutWords(q, f.words), this.url.state.query));
      else this.url?.setFacets([]);
    });
    this.addEventListener("sfs-sort-change", (e) => this.url?.setSort(e.detail.value));
    this.addEventListener("sfs-page-change", (e) => this.onPageChange(e.detail.page));
    this.addEventListener("sfs-product-click", (e) => this.search?.trackProductClick(e.detail.productId));
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (!this.search && this.context) this.createControllers(this.context);
    this.narrow = this.layout.value;
    if (changed.has("narrow") && !this.narrow) this.drawer?.close?.();
    if (this.firstFrame === "due" && this.search?.result) {
      if (this.search.result.products.length <= SKELETON_CARDS) this.firstFrame = "done";
      else {
        this.firstFrame = "drawing";
        requestAnimationFrame(() => {
          this.firstFrame = "done";
          this.requestUpdate();
        });
      }
    }
  }

  /** The selection the query's words made that holds `value` of `key`, if one does. */
  private implied(key: string, value: string) {
    return this.search?.result?.queryFacets?.find((f) => f.key === key && f.values.includes(value));
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
    // Once the whole page is drawn (the first answer takes two frames): only then is it as long as it was.
    if (s?.status === "complete" && this.firstFrame === "done") this.context?.restoreScroll?.();
    const to = this.redirectOf(s?.result);
    if (to && s?.status === "complete" && s.result !== this.redirected) {
      this.redirected = s.result!;
      this.context!.redirect(to);
      return;
    }
    if (s?.status === "complete" && s.result && s.result !== this.announced && s.resultState) {
      this.announced = s.result;
      emit(this, "sfs-results-load", {
        query: s.resultState.query,
        totalProductCount: s.result.totalProductCount,
        page: s.resultState.page,
      });
      if (this.focusCountOnLoad) {
        this.focusCountOnLoad = false;
        const count = this.renderRoot.querySelector<HTMLElement>("[part~=count]");
        count?.focus({ preventScroll: true });
        this.scrollIntoView?.({ block: "start" });
      }
    }
  }

  /** Where a rule sends the shopper for this answer (a checked address), or null. */
  private redirectOf(result: SearchResponse | null | undefined): string | null {
    return result?.redirect && this.context ? safeUrl(result.redirect, this.context.urlEnv.location.href) : null;
  }

  private renderBanners(banners: readonly Banner[]) {
    if (!banners.length) return nothing;
    const t = this.context!.config.texts;
    return html`<section part="banners" aria-label=${t.banners}>
      ${banners.map((b) => {
        const content = html`${b.image ? html`<img part="banner-image" src=${b.image} alt="" loading="lazy" decoding="async" />` : nothing}
          <span part="banner-title">${b.title}</span>
          ${b.text ? html`<span part="banner-text">${b.text}</span>` : nothing}`;
        return b.link ? html`<a part="banner" href=${b.link}>${content}</a>` : html`<div part="banner">${content}</div>`;
      })}
    </section>`;
  }

  private onPageChange(page: number) {
    this.focusCountOnLoad = true;
    this.url?.setPage(page);
  }

  /**
   * A link to another search: followed in place (a new tab or window still gets the address). `exact` searches the
   * words as typed; `facets` starts it with those selected (a popular category, with no words).
   */
  private queryLink(
    query: string,
    part: "suggestion-link" | "popular-link" | "category-link" | "search-instead",
    label: string = query,
    exact = false,
    facets: FacetSelection[] = [],
  ) {
    const ctx = this.context!;
    const href = writeSearchState(
      ctx.urlEnv.location.href,
      { query, facets, sort: this.url?.state.sort ?? "", page: 1, exact },
      ctx.config.queryParam,
    );
    return html`<a
      part=${part satisfies "suggestion-link" | "popular-link" | "category-link" | "search-instead"}
      href=${href}
      @click=${(e: MouseEvent) => {
        if (e.metaKey || e.ctrlKey || e.shiftKey || e.button) return;
        e.preventDefault();
        this.url?.setQuery(query, exact, facets);
      }}
      >${label}</a
    >`;
  }

  /** The skip link's target: the results, past the header and the facets. */
  private skipToResults(e: Event) {
    e.preventDefault();
    const main = this.renderRoot.querySelector<HTMLElement>("[part~=main]");
    main?.focus();
    main?.scrollIntoView?.({ block: "start" });
  }

  override render() {
    const ctx = this.context;
    const s = this.search;
    if (!ctx || !s || !this.url || s.status === "idle") return nothing;
    const t = ctx.config.texts;
    const state = this.url.state;
    const result = s.result;
    const failed = s.status === "error";
    // Before the first answer the page is laid out as most answers are (facets beside the grid), so that the
    // answer fills the placeholders in place rather than moving the page; the states take the full width.
    const first = !result && !failed;
    const found = !failed && !!result?.totalProductCount;
    const facets = result?.facets ?? [];
    const selected = state.facets.length;
    const total = new Intl.NumberFormat(ctx.config.locale).format(result?.totalProductCount ?? 0);
    const countText = first ? t.loading : found ? fillText(t.results, { count: total }) : "";
    const facetsEl = html`<sfs-facets
      part="facets"
      exportparts=${facetsParts}
      .facets=${facets}
      .selected=${state.facets}
      .implied=${result?.queryFacets ?? []}
      .texts=${t}
      .priceFormat=${ctx.priceFormat}
      .open=${ctx.config.facetsOpen}
    ></sfs-facets>`;
    const withFacets = (first || found) && (first || facets.length > 0 || selected > 0);
    return html`
      <div part="base" class=${withFacets && !this.narrow ? "with-sidebar" : ""}>
        ${found ? html`<a part="skip-link" href="#" @click=${this.skipToResults}>${t.skipToResults}</a>` : nothing}
        <div part="header">
          <h2 part="heading">${state.query ? fillText(t.resultsFor, { query: state.query }) : t.popularProducts}</h2>
          <p part="count" aria-live="polite" tabindex="-1">${countText}</p>
          <div part="toolbar">
            ${
              this.narrow && withFacets
                ? html`<button part="filter-button" type="button" aria-haspopup="dialog" @click=${() => this.drawer?.showModal()}>
                  ${t.filters}${selected ? html` <span part="filter-count">${selected}</span>` : nothing}
                </button>`
                : nothing
            }
            ${
              ctx.config.sortOptions.length > 1 && (first || found)
                ? html`<sfs-sort part="sort" exportparts=${sortParts} .options=${ctx.config.sortOptions} .value=${state.sort} .label=${t.sortBy}></sfs-sort>`
                : nothing
            }
          </div>
        </div>
        ${
          withFacets && !this.narrow
            ? html`<aside part="sidebar" aria-label=${t.filters}>${first || this.firstFrame === "drawing" ? html`<div part="facets-skeleton" aria-hidden="true">${bars(6)}</div>` : facetsEl}</aside>`
            : nothing
        }
        ${
          first || found
            ? html`<div part="main" tabindex="-1">${this.renderBody()}</div>`
            : // A state is a new element, not the results' column moved to the left (which would count as a layout shift).
              html`<div part="main state" tabindex="-1">${this.renderBody()}</div>`
        }
      </div>
      ${
        this.narrow && !first
          ? html`<dialog part="drawer" aria-labelledby="drawer-title">
            <div part="drawer-header">
              <h2 part="drawer-title" id="drawer-title">${t.filters}</h2>
              <button part="drawer-close" type="button" @click=${() => this.drawer?.close()}>${t.close}</button>
            </div>
            ${facetsEl}
            <div part="drawer-footer">
              <button part="drawer-apply" type="button" @click=${() => this.drawer?.close()}>${fillText(t.showResults, { count: total })}</button>
            </div>
          </dialog>`
          : nothing
      }
    `;
  }

  private renderBody() {
    const ctx = this.context!;
    const s = this.search!;
    const t = ctx.config.texts;
    if (s.status === "error") {
      return html`<div part="error" role="alert">
        <p part="message">${t.error}</p>
        <button part="retry-button" type="button" @click=${() => s.retry()}>${t.retry}</button>
      </div>`;
    }
    const result = s.result;
    if (!result) {
      return html`<ul part="grid" aria-busy="true" aria-label=${t.loading}>
        ${Array.from({ length: Math.min(SKELETON_CARDS, ctx.config.pageSize) }, () => html`<li part="skeleton" aria-hidden="true">${bars(3)}</li>`)}
      </ul>`;
    }
    const state = s.resultState!;
    if (this.redirectOf(result)) return html`<p part="redirecting" role="status">${fillText(t.redirecting, { query: state.query })}</p>`;
    const banners = this.renderBanners(bannersOf(result.userData, ctx.urlEnv.location.href));
    const suggestions = (result.spellSuggestions ?? []).filter((q) => q.toLowerCase() !== state.query.toLowerCase());
    const didYouMean = suggestions.length
      ? html`<p part="did-you-mean">${t.didYouMean} ${suggestions.map((q, i) => html`${i ? ", " : ""}${this.queryLink(q, "suggestion-link")}`)}?</p>`
      : nothing;
    // "Showing results for jeans. Search instead for jeens": the correction applied, and the way back to the words.
    const corrected =
      result.typedQuery && result.query
        ? html`<p part="notice corrected">${fillText(t.corrected, { used: result.query })} ${this.queryLink(result.typedQuery, "search-instead", fillText(t.searchInstead, { query: result.typedQuery }), true)}</p>`
        : nothing;
    if (!result.totalProductCount) {
      const popular = ctx.config.popularQueries.filter((q) => q.toLowerCase() !== state.query.toLowerCase());
      const categories = ctx.config.popularCategories;
      return html`${banners}<div part="empty">
        <p part="message">${fillText(t.noResults, { query: state.query })}</p>
        ${corrected} ${didYouMean}
        ${
          state.facets.length
            ? html`<button part="clear-filters" type="button" @click=${() => this.url?.setFacets([])}>${t.clearFilters}</button>`
            : nothing
        }
        ${
          popular.length
            ? html`<h3 part="popular-title">${t.popular}</h3>
              <ul part="popular">
                ${popular.map((q) => html`<li>${this.queryLink(q, "popular-link")}</li>`)}
              </ul>`
            : nothing
        }
        ${
          categories.length
            ? html`<h3 part="popular-title">${t.categories}</h3>
              <ul part="popular">
                ${categories.map((c) => html`<li>${this.queryLink("", "category-link", c.name, false, [{ key: "category.lvl1", value: c.key }])}</li>`)}
              </ul>`
            : nothing
        }
      </div>`;
    }
    const partial = this.firstFrame === "drawing";
    const notice = result.recovered
      ? html`<p part="notice">${fillText(t.recovered, { query: state.query })}</p>`
      : result.fallback && result.query
        ? html`<p part="notice">${fillText(t.fallback, { query: state.query, used: result.query })}</p>`
        : nothing;
    const pinned = ctx.config.markPinned ? new Set(result.pinnedProductIds ?? []) : null;
    return html`${banners} ${notice} ${corrected} ${didYouMean}
      <ul part="grid" aria-busy=${s.status === "pending" ? "true" : "false"}>
        ${(partial ? result.products.slice(0, SKELETON_CARDS) : result.products).map(
          (p) => html`<li>
            <sfs-product-card part="card" exportparts=${CARD_EXPORT_PARTS} .product=${p} .texts=${t} .priceFormat=${ctx.priceFormat} .pinned=${!!pinned?.has(p.productId)}></sfs-product-card>
          </li>`,
        )}
      </ul>
      ${partial ? nothing : html`<sfs-pagination part="pagination" exportparts=${paginationParts} .page=${state.page} .pageCount=${s.lastPage} .texts=${t}></sfs-pagination>`}`;
  }
}

/** `query` without `words` (as the answer folded them: case and accents aside), single-spaced. */
export function withoutWords(query: string, words: string): string {
  const fold = (s: string) => s.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
  const at = fold(query).indexOf(fold(words));
  return (at < 0 ? query : query.slice(0, at) + query.slice(at + words.length)).replace(/\s+/g, " ").trim();
}

/** Placeholder bars of the loading state. */
const bars = (n: number) => Array.from({ length: n }, () => html`<span part="skeleton-bar"></span>`);
