import { localeFields, siteViewData } from "./analytics/event-data.ts";
import { eventProblem, takesLocale } from "./analytics/event-types.ts";
import { Identity, type KeyValueStorage } from "./analytics/identity.ts";
import { Tracker } from "./analytics/tracker.ts";
import { createApiClient, type ApiClient } from "./api/client.ts";
import type { SfsCompleteTheLook } from "./components/complete-the-look/complete-the-look.component.ts";
import type { SfsRecommendations } from "./components/recommendations/recommendations.component.ts";
import type { SfsSearchResults } from "./components/search-results/search-results.component.ts";
import type { SfsSimilarProducts } from "./components/similar-products/similar-products.component.ts";
import type { SfsTypeahead } from "./components/typeahead/typeahead.component.ts";
import type { WidgetConfig, WidgetConfigResponse } from "@storefront-search/contract";
import { resolveConfig, themeStyleText } from "./config/resolve-config.ts";
import { FIRST_SEARCH_KEYS, withEarlySearch } from "./core/first-search.ts";
import { HeadlessHost } from "./core/headless-host.ts";
import { SearchController, searchRequest } from "./core/search-controller.ts";
import type { CartHook, WidgetContext } from "./core/widget-context.ts";
import { createPriceFormat } from "./format/price-format.ts";
import { readSearchState, searchPageHref } from "./state/search-state.ts";

/*
 * Starts the widget on a store page: reads the store's configuration, sends SiteView, mounts the results page in
 * the target div and the typeahead on the store's search inputs, and installs window.StorefrontSearch. Only
 * this file and index.ts read `window`; everything else receives what it needs.
 */

/** What the <script> tag says (data-store-id, data-search-key, data-analytics-key, data-api, data-target). */
export interface ScriptSettings {
  api: string;
  storeId: string;
  searchKey: string;
  analyticsKey?: string;
  targetId?: string;
}

/** window.StorefrontSearch: for what only the store knows, and for its own search boxes. */
export interface StorefrontSearchApi {
  /** Reports an event only the store sees (AddToCart, OrderComplete, Purchase, PromotionClick, …) with its spec data. */
  track(type: string, data?: object): void;
  /** Shows the results of `query`: updates the results in place on the results page, else goes there. */
  search(query: string): void;
  /**
   * Registers the store's cart: the complete-the-look popup shows "Add to cart" buttons only with one, calls
   * `hook(item)` and reports AddToCart itself when the hook did not answer (or resolve to) `false`. A value that
   * is not a function removes the hook.
   */
  setCartHook(hook: CartHook | null): void;
  readonly version: string;
}

declare global {
  interface Window {
    StorefrontSearch?: StorefrontSearchApi | { q?: unknown[][] };
  }
}

export const WIDGET_VERSION = "1.0.0";
const MAX_INPUTS = 4;
const MAX_CAROUSELS = 4;
const MAX_PLACEMENTS = 4;

export interface WidgetApp {
  config: WidgetConfig | null;
  context: WidgetContext | null;
  client: ApiClient;
  tracker: Tracker | null;
  results: SfsSearchResults | null;
  typeaheads: SfsTypeahead[];
  carousels: SfsSimilarProducts[];
  /** The complete-the-look elements mounted in data-sfs-ctl divs. */
  looks: SfsCompleteTheLook[];
  /** The recommendation placements mounted in data-sfs-recommend divs. */
  placements: SfsRecommendations[];
  /** Pre-production mode: the search that ran without showing anything. */
  preprodSearch: SearchController | null;
  stop(): void;
}

/** Reads the settings of the script tag; null (with a console warning) when the required ones are missing. */
export function readScriptSettings(script: HTMLScriptElement | null): ScriptSettings | null {
  const d = script?.dataset;
  if (!script || !d?.storeId || !d.searchKey) {
    console.warn("[storefront-search] the widget's <script> needs data-store-id and data-search-key");
    return null;
  }
  let api = d.api;
  if (!api) {
    try {
      api = new URL(script.src).origin;
    } catch {
      api = script.ownerDocument.location?.origin ?? "";
    }
  }
  return {
    api,
    storeId: d.storeId,
    searchKey: d.searchKey,
    ...(d.analyticsKey ? { analyticsKey: d.analyticsKey } : {}),
    ...(d.target ? { targetId: d.target } : {}),
  };
}

/** The shopper's last searches (newest first, at most RECENT), and where a results page was left (session). */
const RECENT_KEY = "sfs.recent";
const RECENT = 5;
const SCROLL_KEY = "sfs.scroll";

function readJson<T>(storage: KeyValueStorage | null, key: string): T | null {
  try {
    return JSON.parse(storage?.getItem(key) ?? "null");
  } catch {
    return null; // storage blocked or damaged
  }
}

function writeJson(storage: KeyValueStorage | null, key: string, value: unknown): void {
  try {
    storage?.setItem(key, JSON.stringify(value));
  } catch {
    // storage full or blocked: nothing to remember
  }
}

function rememberRecent(storage: KeyValueStorage | null, query: string): void {
  const recent = (readJson<string[]>(storage, RECENT_KEY) ?? []).filter((q) => q.toLowerCase() !== query.toLowerCase());
  writeJson(storage, RECENT_KEY, [query, ...recent].slice(0, RECENT));
}

/** Where the members of the configuration the first search depends on are remembered, per store. */
const CONFIG_KEY = "sfs.config.";

const recall = (storage: KeyValueStorage | null, storeId: string) => readJson<WidgetConfigResponse>(storage, CONFIG_KEY + storeId);

/** Only the members the first search depends on: the next page guesses the rest with the defaults. */
const remember = (storage: KeyValueStorage | null, storeId: string, config: WidgetConfigResponse) =>
  writeJson(storage, CONFIG_KEY + storeId, Object.fromEntries(FIRST_SEARCH_KEYS.map((k) => [k, config[k]])));

/** The browser's storage of a kind, or null where it is blocked (ids and recent searches then live for the page). */
function storageOf(win: Window, kind: "localStorage" | "sessionStorage" = "localStorage"): KeyValueStorage | null {
  try {
    return win[kind];
  } catch {
    return null;
  }
}

/**
 * The store's theme tokens as a document-level stylesheet: constructable (allowed under a strict style-src CSP,
 * like Lit's own component styles), else a <style> element.
 */
function applyTheme(doc: Document, text: string): void {
  if (!text) return;
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(text);
    doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet];
    return;
  } catch {
    // no constructable stylesheets in this browser
  }
  const style = doc.createElement("style");
  style.dataset.sfsTheme = "";
  style.textContent = text;
  doc.head.append(style);
}

function domReady(doc: Document): Promise<void> {
  if (doc.readyState !== "loading") return Promise.resolve();
  return new Promise((resolve) => doc.addEventListener("DOMContentLoaded", () => resolve(), { once: true }));
}

function queryAll(doc: Document, selector: string): HTMLInputElement[] {
  try {
    return Array.from(doc.querySelectorAll<HTMLInputElement>(selector));
  } catch {
    return []; // a selector the browser does not understand
  }
}

/**
 * A carousel wherever the store put <div {slot} data-product-id="…" [data-variant-id="…"]>; the elements the store
 * wrote itself (<sfs-similar-products product-id="…">) get the same context.
 */
function mountCarousels<K extends "sfs-similar-products" | "sfs-complete-the-look">(
  doc: Document,
  context: WidgetContext,
  slotAttribute: string,
  tag: K,
) {
  const mounted: HTMLElementTagNameMap[K][] = [];
  for (const slot of Array.from(doc.querySelectorAll<HTMLElement>(`[${slotAttribute}][data-product-id]`)).slice(0, MAX_CAROUSELS)) {
    const carousel = doc.createElement(tag);
    carousel.context = context;
    carousel.productId = slot.dataset.productId!;
    carousel.variantId = slot.dataset.variantId ?? "";
    slot.replaceChildren(carousel);
    mounted.push(carousel);
  }
  for (const carousel of Array.from(doc.querySelectorAll(tag))) carousel.context ??= context;
  return mounted;
}

/**
 * A recommendation placement wherever the store put <div data-sfs-recommend="trending|bought-together|recently-viewed|for-you">
 * (with data-category for trending, data-product-id for bought-together); the store's own <sfs-recommendations>
 * get the context too.
 */
function mountPlacements(doc: Document, context: WidgetContext): SfsRecommendations[] {
  const mounted: SfsRecommendations[] = [];
  for (const slot of Array.from(doc.querySelectorAll<HTMLElement>("[data-sfs-recommend]")).slice(0, MAX_PLACEMENTS)) {
    const carousel = doc.createElement("sfs-recommendations");
    carousel.context = context;
    carousel.placement = slot.dataset.sfsRecommend!;
    carousel.productId = slot.dataset.productId ?? "";
    carousel.category = slot.dataset.category ?? "";
    slot.replaceChildren(carousel);
    mounted.push(carousel);
  }
  for (const carousel of Array.from(doc.querySelectorAll("sfs-recommendations"))) carousel.context ??= context;
  return mounted;
}

export async function startWidget(settings: ScriptSettings, win: Window = window): Promise<WidgetApp> {
  const doc = win.document;
  const nav = win.navigator;
  const storage = storageOf(win);
  const session = storageOf(win, "sessionStorage");
  const identity = new Identity(storage);
  const ids = () => ({ userId: identity.userId, sessionId: identity.sessionId(false) });
  const client = createApiClient({
    api: settings.api,
    storeId: settings.storeId,
    searchKey: settings.searchKey,
    ...(settings.analyticsKey ? { analyticsKey: settings.analyticsKey } : {}),
    ...(typeof nav.sendBeacon === "function" ? { sendBeacon: (url: string, body: string) => nav.sendBeacon(url, body) } : {}),
    shopper: ids,
  });
  const tracker = settings.analyticsKey
    ? new Tracker({ storeId: settings.storeId, identity, send: (events, transport) => client.track(events, transport) })
    : null;
  tracker?.start({ window: win, document: doc });

  const app: WidgetApp = {
    config: null,
    context: null,
    client,
    tracker,
    results: null,
    typeaheads: [],
    carousels: [],
    looks: [],
    placements: [],
    preprodSearch: null,
    stop() {
      tracker?.stop();
      app.results?.remove();
      for (const t of app.typeaheads) t.remove();
      for (const c of [...app.carousels, ...app.looks, ...app.placements]) c.remove();
      app.preprodSearch?.hostDisconnected();
    },
  };

  let resolveContext!: (ctx: WidgetContext | null) => void;
  const contextReady = new Promise<WidgetContext | null>((resolve) => (resolveContext = resolve));
  let locale = localeFields(nav.language ?? "", doc.documentElement.lang, "en", "");

  const track = (type: string, data?: object) => {
    const payload = data ?? {};
    const problem = eventProblem(type, payload);
    if (problem) {
      console.warn(`[storefront-search] event not sent: ${problem}`);
      return;
    }
    const withLocale = takesLocale(type)
      ? { region: locale.region, language: locale.language, currency: locale.currency, ...payload }
      : payload;
    tracker?.track(type, withLocale);
  };
  let cartHook: CartHook | null = null;
  const queued = (win.StorefrontSearch as { q?: unknown[][] } | undefined)?.q;
  const api: StorefrontSearchApi = {
    track,
    search: (query) => void contextReady.then((ctx) => ctx?.showResults(String(query))),
    setCartHook: (hook) => void (cartHook = typeof hook === "function" ? hook : null),
    version: WIDGET_VERSION,
  };
  win.StorefrontSearch = api;
  // Calls a store made through a stub before the script arrived: window.StorefrontSearch = { q: [["track", …]] }.
  if (Array.isArray(queued)) {
    for (const [name, ...args] of queued) {
      if (name === "track" || name === "search" || name === "setCartHook") (api[name] as (...a: unknown[]) => void)(...args);
    }
  }

  // The first search starts now, as the configuration this browser saw last (else the defaults) would ask it.
  const remembered = recall(storage, settings.storeId);
  const localeOf = (c: WidgetConfig) => localeFields(nav.language ?? "", doc.documentElement.lang, c.locale, c.currency.code);
  const guess = resolveConfig(remembered);
  const firstState = readSearchState(win.location.href, guess.queryParam);
  const search: ApiClient["search"] =
    !guess.preprod && firstState.query && win.location.pathname === guess.searchPagePath
      ? withEarlySearch(client.search, searchRequest(firstState, { pageSize: guess.pageSize, locale: localeOf(guess), ids }))
      : client.search;

  let raw = null;
  try {
    raw = await client.widgetConfig();
    remember(storage, settings.storeId, raw);
  } catch (error) {
    console.warn("[storefront-search] the widget configuration could not be loaded; searching with the defaults", error);
  }
  // Without it the page still searches: with what this browser remembered of it, else the defaults.
  const config = resolveConfig(raw ?? remembered);
  locale = localeOf(config);
  track("SiteView", siteViewData({ location: win.location.href, referrer: doc.referrer, userAgent: nav.userAgent }, locale));
  app.config = config;

  const context: WidgetContext = {
    config,
    client: { ...client, search },
    priceFormat: createPriceFormat(config.locale, config.currency),
    locale,
    track,
    ids,
    urlEnv: win,
    showResults(query) {
      const text = query.trim();
      if (!text) return;
      rememberRecent(storage, text);
      if (app.results?.isConnected && app.results.url) app.results.url.setQuery(text);
      else win.location.assign(searchPageHref(win.location.href, config.searchPagePath, config.queryParam, text));
    },
    openUrl: (url) => win.location.assign(url),
    redirect: (url) => win.location.replace(url),
    cart: () => cartHook,
    recentQueries: () => readJson<string[]>(storage, RECENT_KEY) ?? [],
    restoreScroll() {
      const kept = readJson<{ href: string; y: number }>(session, SCROLL_KEY);
      if (kept?.href !== win.location.href) return;
      writeJson(session, SCROLL_KEY, null);
      // The cards draw themselves after the page does: until the page is that long again, try on the next frames.
      let frames = 0;
      const go = () => {
        win.scrollTo(0, kept.y);
        if (Math.abs(win.scrollY - kept.y) > 1 && frames++ < 60) win.requestAnimationFrame(go);
      };
      go();
    },
  };
  app.context = context;

  if (config.preprod) {
    // Pre-production: the store's own search shows results; the service only receives the queries.
    const state = readSearchState(win.location.href, config.queryParam);
    if (new URL(win.location.href).pathname === config.searchPagePath && state.query) {
      const host = new HeadlessHost();
      // No events of its own: the store's Search and ProductClick events describe its existing search, which
      // the preprod report compares with our answers.
      app.preprodSearch = new SearchController(host, {
        search,
        pageSize: config.pageSize,
        locale,
        ids: context.ids,
        preprod: true,
      });
      host.connect();
      app.preprodSearch.request(state);
    }
    resolveContext(null);
    return app;
  }

  applyTheme(doc, themeStyleText(config.theme));

  await domReady(doc);
  const target = doc.getElementById(settings.targetId ?? config.targetId);
  if (target) {
    const results = doc.createElement("sfs-search-results");
    results.context = context;
    target.replaceChildren(results);
    app.results = results;
    // Back from a product page restores the results page's position (context.restoreScroll), not the browser.
    win.history.scrollRestoration = "manual";
    win.addEventListener("pagehide", () => writeJson(session, SCROLL_KEY, { href: win.location.href, y: win.scrollY }));
  }
  app.carousels = mountCarousels(doc, context, "data-sfs-similar", "sfs-similar-products");
  app.looks = mountCarousels(doc, context, "data-sfs-ctl", "sfs-complete-the-look");
  app.placements = mountPlacements(doc, context);
  let inputs = queryAll(doc, config.searchInputSelector);
  if (!inputs.length) inputs = queryAll(doc, "input[type=search]");
  for (const input of inputs.slice(0, MAX_INPUTS)) {
    if (input.getAttribute("aria-controls")?.startsWith("sfs-typeahead")) continue; // already attached
    const typeahead = doc.createElement("sfs-typeahead");
    typeahead.context = context;
    typeahead.input = input;
    // Beside its input, in the same landmark (the store's search form), not loose at the end of the body.
    (input.form ?? input.parentElement ?? doc.body).append(typeahead);
    app.typeaheads.push(typeahead);
  }
  if (app.results) {
    // The store's own search box says what the results are for (not while the shopper is typing in it).
    const fill = (query: string) => {
      for (const input of inputs) if (doc.activeElement !== input) input.value = query;
    };
    fill(readSearchState(win.location.href, config.queryParam).query);
    app.results.addEventListener("sfs-results-load", (e) => fill(e.detail.query));
  }
  resolveContext(context);
  return app;
}
