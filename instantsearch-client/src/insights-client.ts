import type { TrackingEvent } from "@storefront-search/contract";
import { isShopperId, randomHex } from "./ids.ts";
import { algoliaEvents, ourEvents, type OurEvent } from "./insights-events.ts";
import { ListingEvents } from "./listing-events.ts";
import { SettlingSearches } from "./settling-searches.ts";

/*
 * The insightsClient an InstantSearch page gives the insights middleware
 * (`instantsearch({ insights: { insightsClient } })`): it answers search-insights' calls and sends the click,
 * add-to-cart, purchase and listing (search, page, sort) events they make to POST /{v}/tracking with the store's analytics key, each
 * with the shopper's token (InstantSearch's anonymous one, or the page's setUserToken) and a session id kept for
 * the browser tab, so that reports and behaviour ranking learn from a store that keeps its own UI.
 */

export interface InsightsClientOptions {
  /** The service's origin, e.g. "https://search.example.com". */
  host: string;
  storeId: string;
  /** The store's analytics key (pk_analytics_…). */
  analyticsKey: string;
  /** API version of the paths; the latest by default. */
  apiVersion?: string;
  /** For tests; the page's fetch by default. */
  fetch?: typeof fetch;
  /** The shopper's session; by default one per browser tab (sessionStorage), else one per client. */
  sessionId?: string;
  /** Events that could not be delivered (a failed request); they are not retried. */
  onError?: (error: Error) => void;
  /** How long a typed query must rest before it counts as a search (ms); 3,000 by default. */
  settleMs?: number;
}

/**
 * search-insights' calling convention: `client(method, ...args)`. Its type gives each method its own result
 * (a token, nothing, a promise), which one signature can only meet with `any`.
 */
// biome-ignore lint/suspicious/noExplicitAny: see above; the arguments are checked where they are read.
export type InsightsClient = ((method: string, ...args: unknown[]) => any) & { version: string };

/**
 * The search-insights API this client answers: from 2.6 the middleware neither calls `init` nor loads
 * search-insights from a CDN when a client is given.
 */
const INSIGHTS_API_VERSION = "2.17.2";
const SESSION_KEY = "storefront-search-session";

function tabSession(): string {
  try {
    const kept = sessionStorage.getItem(SESSION_KEY);
    if (kept && isShopperId(kept)) return kept;
    const made = randomHex(12);
    sessionStorage.setItem(SESSION_KEY, made);
    return made;
  } catch {
    return randomHex(12);
  }
}

export function createInsightsClient(options: InsightsClientOptions): InsightsClient {
  // The store and the key in the query string and a text/plain body: a request without custom headers needs no
  // CORS preflight, so a click that leaves the page is one request, which keepalive lets finish.
  const credentials = new URLSearchParams({ "x-service-store-id": options.storeId, "x-service-api-key": options.analyticsKey });
  const url = `${options.host.replace(/\/+$/, "")}/${options.apiVersion ?? "1.9"}/tracking?${credentials}`;
  const send = options.fetch ?? ((input, init) => fetch(input, init));
  const sessionId = options.sessionId ?? tabSession();
  let userToken: string | undefined;
  let anonymousUser: string | undefined;
  let onTokenChange: ((token: string | undefined) => void) | undefined;
  const listings = new ListingEvents();

  const userId = () => (userToken && isShopperId(userToken) ? userToken : (anonymousUser ??= randomHex(12)));

  async function post(events: OurEvent[]): Promise<void> {
    const body: TrackingEvent[] = events.map((e) => ({ ...e, userId: userId(), sessionId, storeId: options.storeId }));
    try {
      const response = await send(url, {
        method: "POST",
        headers: { "content-type": "text/plain;charset=UTF-8" },
        body: JSON.stringify(body),
        keepalive: true,
      });
      if (!response.ok) throw new Error(`POST /tracking answered ${response.status}`);
    } catch (error) {
      options.onError?.(error as Error);
    }
  }

  const searches = new SettlingSearches(post, options.settleMs);
  // A query the shopper was still on when they leave is their search; keepalive lets its request finish.
  globalThis.addEventListener?.("pagehide", () => void searches.flush());

  function setUserToken(token: unknown): void {
    const next = token === undefined || token === null ? undefined : String(token);
    if (next === userToken) return;
    userToken = next;
    onTokenChange?.(userToken);
  }

  const client = (method: string, ...args: unknown[]): Promise<void> | string | undefined => {
    const [first, second] = args as [Record<string, unknown> | undefined, unknown];
    switch (method) {
      case "init":
        if (first?.userToken !== undefined) setUserToken(first.userToken);
        return;
      case "setUserToken":
        setUserToken(first);
        return;
      case "getUserToken":
        if (typeof second === "function") second(null, userToken);
        return userToken;
      case "onUserTokenChange":
        onTokenChange = typeof first === "function" ? (first as (token: string | undefined) => void) : undefined;
        if ((second as { immediate?: boolean } | undefined)?.immediate && userToken !== undefined) onTokenChange?.(userToken);
        return;
    }
    const events = algoliaEvents(method, args).flatMap(({ kind, event }) => ourEvents(kind, event, listings));
    return events.length ? searches.offer(events) : undefined;
  };
  return Object.assign(client, { version: INSIGHTS_API_VERSION });
}
