import type { ReactiveController, ReactiveControllerHost } from "lit";
import { listingData, productClickData, type LocaleFields } from "../analytics/event-data.ts";
import type { SearchProduct, SearchResponse, SuggestionsResponse } from "@storefront-search/contract";
import { Debouncer } from "./debouncer.ts";
import { browserScheduler, type Scheduler } from "./scheduler.ts";

/*
 * The typeahead's logic, apart from its rendering: what the shopper typed, debounced lookups of suggestions and
 * top products (a newer keystroke aborts the older lookup, and a stale answer is never shown), and the keyboard
 * of the ARIA combobox pattern (ArrowDown/ArrowUp move the active option, Enter selects it or submits the query,
 * Escape closes).
 */

export type TypeaheadOption =
  | { kind: "suggestion" | "designer" | "recent" | "popular"; label: string; count: number }
  | { kind: "product"; label: string; product: SearchProduct };

export interface TypeaheadOptions {
  suggestions(query: string, limit: number, signal: AbortSignal): Promise<SuggestionsResponse>;
  products(query: string, limit: number, signal: AbortSignal): Promise<SearchResponse>;
  /** Enter without an active option: the results page for `query`. */
  onSubmit(query: string): void;
  /** What the empty box offers when focused: the shopper's recent searches and the store's popular ones. */
  idle?(): TypeaheadOption[];
  /** An option was chosen (Enter on it, or a click). */
  onSelect(option: TypeaheadOption, query: string): void;
  /** Enter without an active option on a query a merchandising rule redirects: its page instead of the results. */
  onRedirect?(url: string): void;
  track?(type: string, data: object): void;
  locale?: LocaleFields;
  debounceMs?: number;
  scheduler?: Scheduler;
  suggestionLimit?: number;
  productLimit?: number;
}

/** What the controller needs of the store's input. */
export interface TypeaheadInput extends EventTarget {
  value: string;
}

export class TypeaheadController implements ReactiveController {
  query = "";
  open = false;
  options: TypeaheadOption[] = [];
  /** Index into `options` of the active option; -1 when none. */
  activeIndex = -1;
  /** The query `options` answer. */
  answered = "";
  /** Where a merchandising rule sends the `answered` query, if one does. */
  private redirect: string | null = null;
  /** A lookup is under way. */
  loading = false;

  private readonly debouncer: Debouncer;
  private inFlight: AbortController | null = null;
  private input: TypeaheadInput | null = null;
  private readonly onInput = () => this.handleInput(this.input?.value ?? "");
  private readonly onKeydown = (event: Event) => this.handleKeydown(event as KeyboardEvent);
  private readonly onBlur = () => this.close();
  private readonly onFocus = () => {
    const text = (this.input?.value ?? "").trim();
    if (!text) this.showIdle();
    else if (this.answered && this.answered === text) this.setOpen(true);
  };

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly settings: TypeaheadOptions,
  ) {
    this.debouncer = new Debouncer(settings.scheduler ?? browserScheduler, settings.debounceMs ?? 150);
    host.addController(this);
  }

  get suggestionLimit(): number {
    return this.settings.suggestionLimit ?? 6;
  }

  get productLimit(): number {
    return this.settings.productLimit ?? 4;
  }

  attach(input: TypeaheadInput | null): void {
    if (input === this.input) return;
    this.detach();
    this.input = input;
    if (!input) return;
    input.addEventListener("input", this.onInput);
    input.addEventListener("keydown", this.onKeydown);
    input.addEventListener("blur", this.onBlur);
    input.addEventListener("focus", this.onFocus);
  }

  detach(): void {
    const input = this.input;
    if (!input) return;
    input.removeEventListener("input", this.onInput);
    input.removeEventListener("keydown", this.onKeydown);
    input.removeEventListener("blur", this.onBlur);
    input.removeEventListener("focus", this.onFocus);
    this.input = null;
  }

  hostConnected(): void {}

  hostDisconnected(): void {
    this.debouncer.cancel();
    this.inFlight?.abort();
    this.inFlight = null;
    this.detach();
  }

  handleInput(value: string): void {
    this.query = value;
    this.activeIndex = -1;
    const text = value.trim();
    if (!text) {
      this.debouncer.cancel();
      this.inFlight?.abort();
      this.inFlight = null;
      this.showIdle();
      return;
    }
    // Open at once, saying it is searching (or still showing the last answer), rather than nothing for a while.
    if (!this.answered) this.options = []; // what the empty box offered is no answer to the typed text
    this.loading = true;
    this.setOpen(true);
    this.debouncer.schedule(() => void this.lookup(text));
  }

  handleKeydown(event: Pick<KeyboardEvent, "key" | "preventDefault" | "altKey" | "isComposing">): void {
    if (event.isComposing) return;
    const count = this.options.length;
    switch (event.key) {
      case "ArrowDown":
      case "ArrowUp": {
        if (!count) return;
        event.preventDefault();
        if (!this.open) {
          this.setOpen(true);
          if (event.altKey) return; // Alt+ArrowDown opens without moving
        }
        const step = event.key === "ArrowDown" ? 1 : -1;
        this.activeIndex = this.activeIndex < 0 ? (step > 0 ? 0 : count - 1) : (this.activeIndex + step + count) % count;
        this.host.requestUpdate();
        return;
      }
      case "Enter": {
        const option = this.open ? this.options[this.activeIndex] : undefined;
        if (option) {
          event.preventDefault();
          this.select(this.activeIndex);
          return;
        }
        const text = (this.input?.value ?? this.query).trim();
        if (!text) return;
        event.preventDefault();
        this.close();
        if (this.redirect && this.answered === text && this.settings.onRedirect) this.settings.onRedirect(this.redirect);
        else this.settings.onSubmit(text);
        return;
      }
      case "Escape":
        if (!this.open) return;
        event.preventDefault();
        this.close();
        return;
      case "Tab":
        this.close();
        return;
    }
  }

  /** Chooses the option at `index` (keyboard or pointer). */
  select(index: number): void {
    const option = this.options[index];
    if (!option) return;
    const query = this.answered || this.query.trim();
    this.close();
    if (option.kind === "product") this.trackProductClick(option.product, query);
    this.settings.onSelect(option, query);
  }

  /** The empty box: recent and popular searches, or closed when there are none. */
  private showIdle(): void {
    this.options = this.settings.idle?.() ?? [];
    this.answered = "";
    this.loading = false;
    this.setOpen(this.options.length > 0);
  }

  close(): void {
    this.activeIndex = -1;
    this.setOpen(false);
  }

  private setOpen(open: boolean): void {
    this.open = open;
    if (!open) this.activeIndex = -1;
    this.host.requestUpdate();
  }

  private async lookup(text: string): Promise<void> {
    this.inFlight?.abort();
    const controller = new AbortController();
    this.inFlight = controller;
    const [suggested, found] = await Promise.allSettled([
      this.settings.suggestions(text, this.suggestionLimit, controller.signal),
      this.settings.products(text, this.productLimit, controller.signal),
    ]);
    if (this.inFlight !== controller || controller.signal.aborted) return; // a newer keystroke owns the popup
    this.inFlight = null;
    const options: TypeaheadOption[] = [];
    if (suggested.status === "fulfilled") {
      for (const s of suggested.value.suggestions ?? []) options.push({ kind: "suggestion", label: s.label, count: s.count });
      for (const d of suggested.value.designers ?? []) options.push({ kind: "designer", label: d.label, count: d.count });
    }
    if (found.status === "fulfilled") {
      for (const p of (found.value.products ?? []).slice(0, this.productLimit))
        options.push({ kind: "product", label: p.name, product: p });
    }
    this.options = options;
    // The search answer's redirect, else the suggestions' (a rule may be matched by either).
    this.redirect =
      (found.status === "fulfilled" ? found.value.redirect : undefined) ??
      (suggested.status === "fulfilled" ? suggested.value.redirect : undefined) ??
      null;
    this.answered = text;
    this.activeIndex = -1;
    this.loading = false;
    // Open even with no options: the popup then says nothing matched.
    this.setOpen(true);
  }

  private trackProductClick(product: SearchProduct, query: string): void {
    const { track, locale } = this.settings;
    if (!track || !locale) return;
    const products = this.options.filter((o) => o.kind === "product").map((o) => (o as { product: SearchProduct }).product);
    const shown = { query, facets: [], sort: "", page: 1 };
    const listing = listingData(shown, { totalProductCount: products.length, products }, this.productLimit, locale);
    track("ProductClick", productClickData(listing, 1, product.productId));
  }
}
