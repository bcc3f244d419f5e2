import { http, HttpResponse, type HttpHandler } from "msw";
import { setupServer } from "msw/node";
import { createApiClient } from "../src/api/client.ts";
import type { WidgetConfigResponse } from "@storefront-search/contract";
import { resolveConfig } from "../src/config/resolve-config.ts";
import type { Scheduler } from "../src/core/scheduler.ts";
import type { WidgetContext } from "../src/core/widget-context.ts";
import { createPriceFormat } from "../src/format/price-format.ts";
import type { WidgetApp } from "../src/widget-app.ts";
import { API_ORIGIN } from "./setup.ts";
import { searchResponse, suggestionsResponse, widgetConfigResponse } from "./fixtures.ts";

/** A clock and timers the test moves by hand. */
export class ManualScheduler implements Scheduler {
  time = 0;
  private nextId = 1;
  private timers = new Map<number, { at: number; fn: () => void; every?: number }>();

  now = () => this.time;
  setTimeout = (fn: () => void, ms: number) => this.add(fn, ms);
  setInterval = (fn: () => void, ms: number) => this.add(fn, ms, ms);
  clearTimeout = (h: unknown) => void this.timers.delete(h as number);
  clearInterval = (h: unknown) => void this.timers.delete(h as number);

  private add(fn: () => void, ms: number, every?: number): number {
    const id = this.nextId++;
    this.timers.set(id, { at: this.time + ms, fn, ...(every ? { every } : {}) });
    return id;
  }

  /** Moves the clock, firing due timers in order. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      let next: [number, { at: number; fn: () => void; every?: number }] | undefined;
      for (const entry of this.timers) if (entry[1].at <= end && (!next || entry[1].at < next[1].at)) next = entry;
      if (!next) break;
      const [id, t] = next;
      this.time = t.at;
      if (t.every) t.at += t.every;
      else this.timers.delete(id);
      t.fn();
    }
    this.time = end;
  }

  get pending(): number {
    return this.timers.size;
  }
}

/** Resolves after pending promise callbacks (and msw's response delivery) ran. */
export const settle = (ms = 0) => new Promise((r) => setTimeout(r, ms));

export const api = (path: string) => `${API_ORIGIN}/1.9/${path}`;

export interface Recorded {
  search: URL[];
  suggestions: URL[];
  tracking: { url: URL; contentType: string | null; body: unknown[] }[];
  config: Request[];
}

/** The service at the network boundary: realistic answers, every request recorded. */
export function mockService(extra: HttpHandler[] = []) {
  const recorded: Recorded = { search: [], suggestions: [], tracking: [], config: [] };
  const server = setupServer(
    ...extra,
    http.get(api("widget-config"), ({ request }) => {
      recorded.config.push(request);
      if (request.headers.get("x-service-api-key") !== "pk_search_test")
        return HttpResponse.json({ message: "Unauthorized", code: "unauthorized" }, { status: 401 });
      return HttpResponse.json(widgetConfigResponse);
    }),
    http.get(api("search"), ({ request }) => {
      const url = new URL(request.url);
      recorded.search.push(url);
      const query = url.searchParams.get("query") ?? "";
      const size = Number(url.searchParams.get("pageSize") ?? 30);
      return HttpResponse.json(searchResponse({ query }, Math.min(size, 3)));
    }),
    http.get(api("suggestions"), ({ request }) => {
      const url = new URL(request.url);
      recorded.suggestions.push(url);
      return HttpResponse.json({ ...suggestionsResponse, query: url.searchParams.get("query") ?? "" });
    }),
    http.post(api("tracking"), async ({ request }) => {
      recorded.tracking.push({
        url: new URL(request.url),
        contentType: request.headers.get("content-type"),
        body: JSON.parse(await request.text()) as unknown[],
      });
      return HttpResponse.json({ ok: true, result: "success" });
    }),
  );
  return { server, recorded };
}

/** The browser's IntersectionObserver, driven by the test: happy-dom has no layout to observe. */
export class FakeObserver {
  static last: FakeObserver | null = null;
  constructor(private readonly callback: (entries: { isIntersecting: boolean; intersectionRatio: number }[]) => void) {
    FakeObserver.last = this;
  }
  observe() {}
  disconnect() {}
  show(ratio: number) {
    this.callback([{ isIntersecting: ratio > 0, intersectionRatio: ratio }]);
  }
  /** Puts it in place of the global one; returns what puts the real one back. */
  static install(): () => void {
    const real = globalThis.IntersectionObserver;
    (globalThis as { IntersectionObserver: unknown }).IntersectionObserver = FakeObserver;
    return () => ((globalThis as { IntersectionObserver: unknown }).IntersectionObserver = real);
  }
}

/** A widget context over the real API client (msw answers) and the happy-dom window; calls out are recorded. */
export function makeContext(config: WidgetConfigResponse = widgetConfigResponse) {
  const resolved = resolveConfig(config);
  const calls = {
    tracked: [] as [string, Record<string, unknown>][],
    showResults: [] as string[],
    openUrl: [] as string[],
    redirect: [] as string[],
  };
  const context: WidgetContext = {
    config: resolved,
    client: createApiClient({ api: API_ORIGIN, storeId: "demo", searchKey: "pk_search_test", analyticsKey: "pk_analytics_test" }),
    priceFormat: createPriceFormat(resolved.locale, resolved.currency),
    locale: { region: "IN", language: "en", currency: "INR" },
    track: (type, data) => calls.tracked.push([type, data as Record<string, unknown>]),
    ids: () => ({ userId: "u1", sessionId: "s1" }),
    urlEnv: window,
    showResults: (q) => calls.showResults.push(q),
    openUrl: (u) => calls.openUrl.push(u),
    redirect: (u) => calls.redirect.push(u),
    cart: () => null,
  };
  return { context, calls };
}

/** Waits until `check` holds (polling), for results that arrive over msw. */
export async function until(check: () => boolean, what = "condition", ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await settle(5);
  }
}

/** Takes away what the head script put on the page (its elements, its theme, window.StorefrontSearch, stored ids). */
export function clearPage(app: Pick<WidgetApp, "stop"> | null): void {
  app?.stop();
  document.body.replaceChildren();
  document.adoptedStyleSheets = [];
  delete window.StorefrontSearch;
  localStorage.clear();
}
