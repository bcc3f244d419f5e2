import "./setup.ts";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { listingEventType, localeFields, siteViewData } from "../src/analytics/event-data.ts";
import { eventProblem } from "../src/analytics/event-types.ts";
import { Identity, SESSION_IDLE_MS, SESSION_KEY, USER_KEY } from "../src/analytics/identity.ts";
import { Tracker, type Transport } from "../src/analytics/tracker.ts";
import { createApiClient } from "../src/api/client.ts";
import type { TrackingEvent } from "@storefront-search/contract";
import { ManualScheduler, mockService, settle } from "./helpers.ts";
import { API_ORIGIN } from "./setup.ts";

class MemoryStorage {
  items = new Map<string, string>();
  getItem = (k: string) => this.items.get(k) ?? null;
  setItem = (k: string, v: string) => void this.items.set(k, v);
}

describe("Identity", () => {
  test("user id: random base-36, kept in localStorage sfs.uid", () => {
    const storage = new MemoryStorage();
    const a = new Identity(storage);
    expect(a.userId).toMatch(/^[0-9a-z]{21}$/);
    expect(storage.getItem(USER_KEY)).toBe(a.userId);
    expect(new Identity(storage).userId).toBe(a.userId);
    expect(new Identity(new MemoryStorage()).userId).not.toBe(a.userId);
  });

  test("session id: renewed after 30 minutes idle, activity extends it (injected clock)", () => {
    const storage = new MemoryStorage();
    let now = 1_700_000_000_000;
    const id = new Identity(storage, () => now);
    const first = id.sessionId();
    expect(first).toMatch(/^[0-9a-z]+$/);
    expect(JSON.parse(storage.getItem(SESSION_KEY)!)).toEqual({ id: first, at: now });
    now += SESSION_IDLE_MS - 1;
    expect(id.sessionId()).toBe(first); // activity at 29:59 …
    now += SESSION_IDLE_MS - 1;
    expect(new Identity(storage, () => now).sessionId()).toBe(first); // … keeps it another 30 minutes, across pages
    now += SESSION_IDLE_MS + 1;
    const second = id.sessionId();
    expect(second).not.toBe(first);
    expect(JSON.parse(storage.getItem(SESSION_KEY)!)).toEqual({ id: second, at: now });
  });

  test("works without storage (blocked) and with a damaged entry", () => {
    const throwing = {
      getItem: () => {
        throw new Error("SecurityError");
      },
      setItem: () => {
        throw new Error("SecurityError");
      },
    };
    const id = new Identity(throwing);
    expect(id.userId).toBe(id.userId);
    expect(id.sessionId()).toBe(id.sessionId());
    const storage = new MemoryStorage();
    storage.setItem(SESSION_KEY, "{not json");
    expect(new Identity(storage).sessionId()).toMatch(/^[0-9a-z]+$/);
  });
});

function setup(send: (events: TrackingEvent[], transport: Transport) => Promise<boolean>) {
  const scheduler = new ManualScheduler();
  const identity = new Identity(new MemoryStorage(), scheduler.now);
  const tracker = new Tracker({ storeId: "demo", identity, send, scheduler });
  const win = new EventTarget();
  const doc = Object.assign(new EventTarget(), { visibilityState: "visible" as DocumentVisibilityState });
  tracker.start({ window: win as unknown as Window, document: doc as unknown as Document });
  return { scheduler, identity, tracker, win, doc };
}

describe("Tracker", () => {
  test("batches events and sends them every 5 s with fetch; a failed batch is retried once, then dropped", async () => {
    const sent: [Transport, TrackingEvent[]][] = [];
    let ok = true;
    const { scheduler, tracker } = setup(async (events, transport) => {
      sent.push([transport, events]);
      return ok;
    });
    tracker.track("Search", { query: "kurta" });
    tracker.track("PageChange", { query: "kurta", page: 2 });
    scheduler.advance(4999);
    expect(sent).toHaveLength(0);
    scheduler.advance(1);
    await settle();
    expect(sent).toHaveLength(1);
    expect(sent[0]![0]).toBe("fetch");
    expect(sent[0]![1].map((e) => e.type)).toEqual(["Search", "PageChange"]);
    expect(sent[0]![1][0]).toEqual({
      type: "Search",
      data: { query: "kurta" },
      userId: expect.any(String),
      sessionId: expect.any(String),
      storeId: "demo",
    });

    ok = false;
    tracker.track("SortByChange", { sortBy: "new" });
    scheduler.advance(5000);
    await settle();
    expect(tracker.pending.map((e) => e.type)).toEqual(["SortByChange"]); // back in the queue once
    scheduler.advance(5000);
    await settle();
    expect(sent.map(([, e]) => e[0]!.type)).toEqual(["Search", "SortByChange", "SortByChange"]);
    expect(tracker.pending).toHaveLength(0); // failed twice: dropped
    scheduler.advance(5000);
    await settle();
    expect(sent).toHaveLength(3); // nothing queued, nothing sent
    tracker.stop();
  });

  test("page hide sends everything by sendBeacon; a refused beacon is retried once by keepalive fetch", async () => {
    const sent: [Transport, string[]][] = [];
    let beaconOk = false;
    const { tracker, win, doc } = setup(async (events, transport) => {
      sent.push([transport, events.map((e) => e.type)]);
      return transport === "beacon" ? beaconOk : true;
    });
    tracker.track("ProductClick", { clickProductId: "kurta-1" });
    doc.visibilityState = "hidden";
    doc.dispatchEvent(new Event("visibilitychange"));
    await settle();
    expect(sent).toEqual([
      ["beacon", ["ProductClick"]],
      ["fetch", ["ProductClick"]],
    ]);
    beaconOk = true;
    tracker.track("AddToCart", { addProductId: "kurta-1" });
    win.dispatchEvent(new Event("pagehide"));
    win.dispatchEvent(new Event("pagehide")); // both events may fire: the second finds nothing to send
    await settle();
    expect(sent.slice(2)).toEqual([["beacon", ["AddToCart"]]]);
    tracker.stop();
  });

  test("large queues are split into requests of at most 100 events", async () => {
    const sizes: number[] = [];
    const { scheduler, tracker } = setup(async (events) => {
      sizes.push(events.length);
      return true;
    });
    for (let i = 0; i < 250; i++) tracker.track("Search", { query: `q${i}` });
    scheduler.advance(5000);
    await settle();
    expect(sizes).toEqual([100, 100, 50]);
    tracker.stop();
  });
});

describe("event data", () => {
  test("SiteView has exactly the spec's fields; region from the browser language, else the store locale", () => {
    const locale = localeFields("en-GB", "en", "en-IN", "INR");
    expect(locale).toEqual({ region: "GB", language: "en", currency: "INR" });
    expect(localeFields("hi", "", "en-IN", "INR")).toEqual({ region: "IN", language: "hi", currency: "INR" });
    const data = siteViewData({ location: "https://shop.example/", referrer: "", userAgent: "UA" }, locale);
    expect(Object.keys(data).sort()).toEqual(["currency", "language", "location", "referrer", "region", "userAgent"]);
  });

  test("which listing event a change is", () => {
    const s = { query: "a", facets: [], sort: "", page: 1 };
    expect(listingEventType(null, s)).toBe("Search");
    expect(listingEventType(s, { ...s, query: "b" })).toBe("Search");
    expect(listingEventType(s, { ...s, facets: [{ key: "color", value: "Red" }] })).toBe("Search");
    expect(listingEventType(s, { ...s, sort: "new" })).toBe("SortByChange");
    expect(listingEventType(s, { ...s, page: 2 })).toBe("PageChange");
    expect(listingEventType(s, { ...s })).toBeNull();
  });

  test("events the service would refuse are recognised before they poison a batch", () => {
    expect(eventProblem("AddToCart", { addProductId: "p1", qty: 1 })).toBeNull();
    expect(eventProblem("AddToCart", { qty: 1 })).toBe("AddToCart: missing addProductId");
    expect(eventProblem("OrderComplete", { orderId: "o1", products: [{ id: "p1" }] })).toBeNull();
    expect(eventProblem("Checkout", {})).toBe('unknown event type "Checkout"');
    expect(eventProblem("Purchase", null)).toBe("Purchase: data must be an object");
  });
});

describe("tracking transport (msw)", () => {
  const { server, recorded } = mockService();
  beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
  afterAll(() => server.close());

  test("POST /1.9/tracking with the keys in the query string and a text/plain JSON array; the beacon gets the same", async () => {
    const beacons: [string, string][] = [];
    const client = createApiClient({
      api: API_ORIGIN,
      storeId: "demo",
      searchKey: "pk_search_test",
      analyticsKey: "pk_analytics_test",
      sendBeacon: (url, body) => (beacons.push([url, body]), true),
    });
    const event: TrackingEvent = { type: "Search", data: { query: "kurta" }, userId: "u1", sessionId: "s1", storeId: "demo" };
    expect(await client.track([event], "fetch")).toBe(true);
    const req = recorded.tracking[0]!;
    expect(req.url.pathname).toBe("/1.9/tracking");
    expect(Object.fromEntries(req.url.searchParams)).toEqual({ "x-service-store-id": "demo", "x-service-api-key": "pk_analytics_test" });
    expect(req.contentType).toBe("text/plain;charset=UTF-8");
    expect(req.body).toEqual([event]);

    expect(await client.track([event], "beacon")).toBe(true);
    expect(beacons).toEqual([[req.url.href, JSON.stringify([event])]]);
  });
});
