import { describe, expect, test } from "bun:test";
import type { SearchResponse } from "@storefront-search/contract";
import { algoliaEvents, ourEvents } from "../src/insights-events.ts";
import { ListingEvents } from "../src/listing-events.ts";
import { SettlingSearches } from "../src/settling-searches.ts";
import { queryContext, rememberQuery } from "../src/query-contexts.ts";

/* search-insights' calls as our shopper events, with the listing each queryID stands for. */

const answer: SearchResponse = {
  totalProductCount: 42,
  products: ["p1", "p2", "p3"].map((productId) => ({ id: `sp_${productId}`, productId, name: productId })),
};
rememberQuery("q-jeans", { query: "jeans", from: 6, pageSize: 3, facets: "designer:Levi's,price:0-50", sortBy: "pricea" }, answer);

const listing = {
  query: "jeans",
  productIds: ["p1", "p2", "p3"],
  facets: [
    { key: "designer", value: "Levi's" },
    { key: "price", value: "0-50" },
  ],
  pageSize: 3,
  sortBy: "pricea",
};

/** Our events for a call, on a page that has shown no listing yet. */
function mapped(method: string, ...args: unknown[]) {
  const listings = new ListingEvents();
  return algoliaEvents(method, args).flatMap(({ kind, event }) => ourEvents(kind, event, listings));
}

describe("insights events", () => {
  test("a click after a search: its Search, then a ProductClick on the page it was shown on (page 3)", () => {
    const click = { eventName: "Hit Clicked", index: "products", queryID: "q-jeans", objectIDs: ["p2"], positions: [8] };
    expect(mapped("clickedObjectIDsAfterSearch", click, { headers: {} })).toEqual([
      { type: "Search", data: { ...listing, totalProducts: 42 } },
      { type: "ProductClick", data: { ...listing, page: 3, clickProductId: "p2" } },
    ]);
  });

  test("a view finds its listing by the products shown; a click with no known query says the product alone", () => {
    expect(mapped("viewedObjectIDs", { eventName: "Hits Viewed", index: "products", objectIDs: ["p1", "p3"] })).toEqual([
      { type: "Search", data: { ...listing, totalProducts: 42 } },
    ]);
    expect(mapped("viewedObjectIDs", { eventName: "Hits Viewed", index: "products", objectIDs: ["elsewhere"] })).toEqual([]);
    expect(mapped("clickedObjectIDs", { eventName: "Clicked", index: "products", objectIDs: ["p9"] })).toEqual([
      { type: "ProductClick", data: { clickProductId: "p9" } },
    ]);
  });

  test("conversions: add-to-cart and purchase by method or eventSubtype; others are dropped", () => {
    const cart = { eventName: "Added", index: "products", queryID: "q-jeans", objectIDs: ["p1"], objectData: [{ quantity: 2 }] };
    expect(mapped("addedToCartObjectIDsAfterSearch", cart).at(-1)).toEqual({
      type: "AddToCart",
      data: { ...listing, page: 3, totalProducts: 42, addProductId: "p1", qty: 2 },
    });
    expect(mapped("convertedObjectIDsAfterSearch", { ...cart, eventSubtype: "addToCart" }).at(-1)!.type).toBe("AddToCart");
    expect(mapped("convertedObjectIDsAfterSearch", { ...cart, eventSubtype: undefined })).toEqual([]);
    const purchase = {
      eventName: "Bought",
      index: "products",
      objectIDs: ["p1", "p3"],
      objectData: [{ queryID: "q-jeans", price: "30.00", discount: 5, quantity: 1 }, { price: 12 }],
      orderId: "o-1",
    };
    expect(mapped("purchasedObjectIDs", purchase)).toEqual([
      { type: "Search", data: { ...listing, totalProducts: 42 } },
      {
        type: "Purchase",
        data: {
          orderId: "o-1",
          products: [
            { id: "p1", price: 25, qty: 1 },
            { id: "p3", price: 12 },
          ],
        },
      },
    ]);
    expect(mapped("purchasedObjectIDs", { ...purchase, orderId: undefined })[1]!.data.orderId).toMatch(/^order-/);
  });

  test("sendEvents: clicks and conversions among them; the middleware's telemetry is dropped", () => {
    expect(
      mapped("sendEvents", [
        { eventType: "instantsearch", eventName: "__start__" },
        { eventType: "click", eventName: "c", index: "products", queryID: "q-jeans", objectIDs: ["p3"], positions: [9] },
        { eventType: "conversion", eventSubtype: "purchase", eventName: "b", index: "products", objectIDs: ["p3"], orderId: "o-2" },
      ]).map((e) => e.type),
    ).toEqual(["Search", "ProductClick", "Purchase"]);
  });
});

describe("listing events", () => {
  const shown = (queryID: string, search: Parameters<typeof rememberQuery>[1]) => {
    rememberQuery(queryID, search, answer);
    return queryContext(queryID)!;
  };

  test("a new query or new filters is a Search; only the order a SortByChange; only the page a PageChange", () => {
    const listings = new ListingEvents();
    const types = [
      shown("l1", { query: "jeans", from: 0, pageSize: 3 }),
      shown("l2", { query: "jeans", from: 3, pageSize: 3 }),
      shown("l3", { query: "jeans", from: 3, pageSize: 3, sortBy: "pricea" }),
      shown("l4", { query: "jeans", from: 3, pageSize: 3, sortBy: "pricea" }),
      shown("l5", { query: "jeans", from: 0, pageSize: 3, sortBy: "pricea", facets: "color:Blue" }),
      shown("l6", { query: "shirt", from: 0, pageSize: 3, sortBy: "pricea", facets: "color:Blue" }),
    ].map((c) => listings.eventFor(c)?.type ?? null);
    expect(types).toEqual(["Search", "PageChange", "SortByChange", null, "Search", "Search"]);
  });

  test("an exclusion is a change of filters, but an event's facets list only the values chosen", () => {
    const listings = new ListingEvents();
    const events = [
      shown("x1", { query: "jeans", pageSize: 3, facets: "color:Blue,designer:Nike" }),
      shown("x2", { query: "jeans", pageSize: 3, facets: "color:Blue,!designer:Nike" }),
    ].map((c) => listings.eventFor(c));
    expect(events.map((e) => e?.type)).toEqual(["Search", "Search"]);
    expect(events[1]!.data.facets).toEqual([{ key: "color", value: "Blue" }]);
  });

  test("a listing met again is nothing", () => {
    const listings = new ListingEvents();
    const c = shown("again", { query: "jeans", pageSize: 3 });
    expect(listings.eventFor(c)?.type).toBe("Search");
    expect(listings.eventFor(c)).toBeNull();
  });
});

describe("searches as the shopper types", () => {
  const search = (query: string, facets: unknown[] = []) => ({ type: "Search" as const, data: { query, facets } });
  const recorder = () => {
    const sent: { type: string; query: unknown }[][] = [];
    const send = async (events: { type: string; data: Record<string, unknown> }[]) => {
      sent.push(events.map((e) => ({ type: e.type, query: e.data.query })));
    };
    return { sent, send };
  };

  test("the query the shopper settled on is the one Search sent; a click sends it first", async () => {
    const { sent, send } = recorder();
    const searches = new SettlingSearches(send, 60_000);
    for (const typed of ["s", "sh", "shi", "shirt", "shirts", "shirt"]) await searches.offer([search(typed)]);
    expect(sent).toEqual([]);
    await searches.offer([{ type: "ProductClick", data: { query: "shirt", clickProductId: "p1" } }]);
    expect(sent).toEqual([
      [
        { type: "Search", query: "shirt" },
        { type: "ProductClick", query: "shirt" },
      ],
    ]);
  });

  test("a query that does not continue the held one, or new filters, sends the held one; a rest sends the last", async () => {
    const { sent, send } = recorder();
    const searches = new SettlingSearches(send, 50);
    await searches.offer([search("jeans")]);
    await searches.offer([search("dress")]);
    await searches.offer([search("dress", [{ key: "color", value: "red" }])]);
    expect(sent).toEqual([[{ type: "Search", query: "jeans" }], [{ type: "Search", query: "dress" }]]);
    await Bun.sleep(200);
    expect(sent.at(-1)).toEqual([{ type: "Search", query: "dress" }]);
    expect(sent).toHaveLength(3);
    expect(searches.flush()).toBeUndefined();
  });
});
