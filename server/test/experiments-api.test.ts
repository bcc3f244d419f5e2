import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { assignVariant } from "../src/modules/experiments/assignment.ts";
import { eventually } from "./support/search-client.ts";
import { errorBody, startTestServer, type TestServer } from "./support/test-server.ts";

/*
 * Experiments through the real server: an experiment's life over HTTP with the admin key, the refusals (bad
 * definitions, changes while running, overlapping scopes), ending with a winner whose settings become the store's,
 * and results counted from events sent through POST /tracking to shoppers whose variant the assignment decides.
 */

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  // The rules the definitions below name: a variant may name only rules that exist.
  for (const id of ["r1", "old-rule"]) {
    const res = await s.call("admin", "PUT", `/1.9/rules/${id}`, {
      conditions: [{ pattern: id, anchoring: "is" }],
      consequence: { userData: [{ id }] },
    });
    expect(res.status).toBe(200);
  }
});
afterAll(() => s.stop());

interface Experiment {
  id: string;
  status: string;
  winner: string | null;
  startedAt: string | null;
  variants: { name: string; share: number }[];
}

const definition = (overrides: Record<string, unknown> = {}) => ({
  name: "Behaviour ranking off",
  scope: { type: "all" },
  mode: "ab",
  variants: [
    { name: "control", share: 50 },
    { name: "plain", share: 50, overrides: { settings: { behaviourRanking: false, facetShownValues: 5 }, rules: ["r1"] } },
  ],
  ...overrides,
});

async function call<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await s.call("admin", method, `/1.9${path}`, body);
  return { status: res.status, body: (await res.json()) as T };
}

async function create(overrides: Record<string, unknown> = {}): Promise<Experiment> {
  const res = await call<Experiment>("POST", "/experiments", definition(overrides));
  expect(res.status).toBe(201);
  return res.body;
}

describe("experiments API", () => {
  test("an experiment is created as a draft, listed, read and replaced", async () => {
    const e = await create();
    expect(e.status).toBe("draft");
    expect(e.id).toMatch(/^exp_[a-f0-9]{32}$/);
    expect((await call<{ experiments: Experiment[] }>("GET", "/experiments")).body.experiments.map((x) => x.id)).toContain(e.id);
    const replaced = await call<Experiment>("PUT", `/experiments/${e.id}`, definition({ name: "Renamed" }));
    expect(replaced.status).toBe(200);
    expect((await call<{ name: string }>("GET", `/experiments/${e.id}`)).body.name).toBe("Renamed");
    expect((await call<unknown>("DELETE", `/experiments/${e.id}`)).status).toBe(200);
    expect((await call<unknown>("GET", `/experiments/${e.id}`)).status).toBe(404);
  });

  test("bad definitions are 400s naming the field; other keys cannot touch experiments", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [
        {
          variants: [
            { name: "a", share: 60 },
            { name: "b", share: 30 },
          ],
        },
        "body.variants",
      ],
      [{ variants: [{ name: "a", share: 100 }] }, "body.variants"],
      [
        {
          variants: [
            { name: "a", share: 50 },
            { name: "a", share: 50 },
          ],
        },
        "body.variants[1].name",
      ],
      [
        {
          variants: [
            { name: "a", share: 50 },
            { name: "b", share: 50, overrides: { colour: "red" } },
          ],
        },
        "body.variants[1].overrides.colour",
      ],
      [
        {
          variants: [
            { name: "a", share: 50 },
            { name: "b", share: 50, overrides: { settings: { allowedOrigins: ["*"] } } },
          ],
        },
        "body.variants[1].overrides.settings.allowedOrigins",
      ],
      [
        {
          variants: [
            { name: "a", share: 50 },
            { name: "b", share: 50, overrides: { settings: { facets: [{ key: "nope" }] } } },
          ],
        },
        "body.variants[1].overrides.settings.facets[0].key",
      ],
      [{ scope: { type: "query", pattern: "shoes" } }, "body.scope"],
      [{ scope: { type: "query", pattern: "   ", anchoring: "contains" } }, "body.scope.pattern"],
      [
        {
          mode: "interleaving",
          variants: [
            { name: "a", share: 50 },
            { name: "b", share: 50, overrides: { looks: { looks: 3 } } },
          ],
        },
        "body.variants[1].overrides.looks",
      ],
      [
        {
          variants: [
            { name: "a", share: 50, overrides: { synonymSets: ["no-such-set"] } },
            { name: "b", share: 50, overrides: { rules: ["r1", "no-such-rule"] } },
          ],
        },
        "body.variants[1].overrides.rules[1]",
      ],
      [
        {
          variants: [
            { name: "a", share: 50, overrides: { synonymSets: ["no-such-set"] } },
            { name: "b", share: 50 },
          ],
        },
        "body.variants[0].overrides.synonymSets[0]",
      ],
      [
        {
          variants: [
            { name: "a", share: 50 },
            { name: "b", share: 50, overrides: { looks: { weights: { colour: 0, occasion: 0, season: 0, price: 0 } } } },
          ],
        },
        "body.variants[1].overrides.looks.weights",
      ],
    ];
    for (const [overrides, path] of cases) {
      const res = await s.call("admin", "POST", "/1.9/experiments", definition(overrides));
      expect(res.status).toBe(400);
      expect((await errorBody(res)).details?.map((d) => d.path)).toContain(path);
    }
    // A draft cannot be replaced by a definition naming a rule the store does not have either.
    const draft = await create();
    const unknown = await s.call(
      "admin",
      "PUT",
      `/1.9/experiments/${draft.id}`,
      definition({
        variants: [
          { name: "a", share: 50, overrides: { rules: ["gone"] } },
          { name: "b", share: 50 },
        ],
      }),
    );
    expect(unknown.status).toBe(400);
    expect((await errorBody(unknown)).message).toContain('no rule "gone"');
    await call("DELETE", `/experiments/${draft.id}`);
    expect((await s.call("admin", "POST", "/1.9/experiments", "a string, not an experiment")).status).toBe(400);
    expect((await s.call("admin", "GET", "/1.9/experiments/not-an-id")).status).toBe(400);
    expect((await s.call("search", "GET", "/1.9/experiments")).status).toBe(401);
  });

  test("a running experiment cannot be changed or deleted; an overlapping one cannot start beside it", async () => {
    const everything = await create();
    const shoes = await create({ scope: { type: "query", pattern: "shoes", anchoring: "startsWith" } });
    const sale = await create({ scope: { type: "collection", collection: "sale" } });
    expect((await call<Experiment>("POST", `/experiments/${shoes.id}/start`)).body.status).toBe("running");
    const overlapping = await s.call("admin", "POST", `/1.9/experiments/${everything.id}/start`);
    expect(overlapping.status).toBe(409);
    expect((await errorBody(overlapping)).message).toContain(shoes.id);
    // A collection page has no query: it cannot be one of the "shoes" searches.
    expect((await call<Experiment>("POST", `/experiments/${sale.id}/start`)).status).toBe(200);
    expect((await call<unknown>("PUT", `/experiments/${shoes.id}`, definition())).status).toBe(409);
    expect((await call<unknown>("DELETE", `/experiments/${shoes.id}`)).status).toBe(409);
    expect((await call<unknown>("POST", `/experiments/${shoes.id}/start`)).status).toBe(409);
    for (const e of [shoes, sale]) expect((await call<Experiment>("POST", `/experiments/${e.id}/stop`)).body.status).toBe("stopped");
    // Its counters name the variants it ran with: a stopped experiment keeps its definition.
    expect((await call<unknown>("PUT", `/experiments/${shoes.id}`, definition())).status).toBe(409);
    expect((await call<Experiment>("POST", `/experiments/${everything.id}/start`)).status).toBe(200);
    await call("POST", `/experiments/${everything.id}/stop`);
    for (const e of [everything, shoes, sale]) expect((await call<unknown>("DELETE", `/experiments/${e.id}`)).status).toBe(200);
  });

  test("ending with a winner makes its settings the store's and names the rules only losers used", async () => {
    const e = await create({
      variants: [
        { name: "control", share: 50, overrides: { rules: ["old-rule"] } },
        { name: "plain", share: 50, overrides: { settings: { behaviourRanking: false, facetShownValues: 5 }, rules: ["r1"] } },
      ],
    });
    expect((await call<unknown>("POST", `/experiments/${e.id}/end`, { winner: "plain" })).status).toBe(409);
    await call("POST", `/experiments/${e.id}/start`);
    expect((await call<unknown>("POST", `/experiments/${e.id}/end`, { winner: "nobody" })).status).toBe(400);
    const ended = await call<{ experiment: Experiment; appliedSettings: string[]; review: { rules: string[] } }>(
      "POST",
      `/experiments/${e.id}/end`,
      { winner: "plain" },
    );
    expect(ended.status).toBe(200);
    expect(ended.body.experiment).toMatchObject({ status: "ended", winner: "plain" });
    expect(ended.body.appliedSettings).toEqual(["behaviourRanking", "facetShownValues"]);
    expect(ended.body.review.rules).toEqual(["old-rule"]);
    const settings = await call<{ behaviourRanking: boolean; facetShownValues: number }>("GET", "/settings");
    expect(settings.body).toMatchObject({ behaviourRanking: false, facetShownValues: 5 });
    expect((await call<unknown>("DELETE", `/experiments/${e.id}`)).status).toBe(409);
    await call("PATCH", "/settings", { behaviourRanking: null, facetShownValues: null });
  });

  test("the sample size answers for the experiment's shares; bad numbers are 400s", async () => {
    const e = await create({
      variants: [
        { name: "a", share: 80 },
        { name: "b", share: 20 },
      ],
    });
    const q = "baselineRate=0.1&minimumDetectableLift=0.1&dailyShoppers=1000";
    expect((await call<unknown>("GET", `/experiments/${e.id}/sample-size?${q}`)).body).toEqual({
      shoppersPerVariant: 14_751,
      shoppers: 73_755,
      days: 74,
    });
    expect(
      (await call<unknown>("GET", `/experiments/${e.id}/sample-size?baselineRate=2&minimumDetectableLift=0.1&dailyShoppers=1`)).status,
    ).toBe(400);
    await call("DELETE", `/experiments/${e.id}`);
  });
});

describe("experiment results over HTTP", () => {
  test("events of shoppers in each variant are counted in their variant; bots and empty searches are left out", async () => {
    const e = await create({ name: "Results", scope: { type: "query", pattern: "dress", anchoring: "contains" } });
    await call("POST", `/experiments/${e.id}/start`);
    const sessions = Array.from({ length: 40 }, (_, i) => `shopper-${i}`);
    const variantOf = (session: string) => assignVariant(e.id, session, [50, 50]);
    const expected = [
      { shoppers: 0, clicked: 0, ordered: 0, revenue: 0 },
      { shoppers: 0, clicked: 0, ordered: 0, revenue: 0 },
    ];
    const events: Record<string, unknown>[] = [];
    sessions.forEach((sessionId, i) => {
      const v = expected[variantOf(sessionId)]!;
      v.shoppers++;
      const listing = { query: "Red dress", productIds: ["p1", "p2"], totalProducts: 2, currency: "EUR" };
      events.push({ type: "Search", sessionId, data: listing });
      if (i % 2 === 0) {
        v.clicked++;
        events.push({ type: "ProductClick", sessionId, data: { ...listing, clickProductId: "p1" } });
      }
      if (i % 4 === 0) {
        v.ordered++;
        v.revenue += 30;
        const order = { orderId: `o${i}`, products: [{ id: "p1", price: 15, qty: 2 }] };
        events.push({ type: "OrderComplete", sessionId, data: order }, { type: "Purchase", sessionId, data: order });
      }
    });
    // Out of scope, a bot, and a search that found nothing: none of them is a shopper of the experiment.
    events.push(
      { type: "Search", sessionId: "elsewhere", data: { query: "shoes", productIds: ["p1"] } },
      { type: "SiteView", sessionId: "crawler", data: { userAgent: "Mozilla/5.0 (compatible; Googlebot/2.1)" } },
      { type: "Search", sessionId: "crawler", data: { query: "dress", productIds: ["p1"] } },
      { type: "Search", sessionId: "unlucky", data: { query: "dress", productIds: [], totalProducts: 0 } },
    );
    expect((await s.call("analytics", "POST", "/1.9/tracking", events)).status).toBe(200);

    interface Results {
      excluded: { bots: number; emptySearches: number };
      variants: {
        name: string;
        shoppers: number;
        searches: number;
        clickThrough: { shoppers: number; rate: number; vsControl: { pValue: number } | null };
        conversion: { shoppers: number };
        revenue: Record<string, { perShopper: number; shoppers: number }>;
      }[];
    }
    let results: Results | undefined;
    const counted = await eventually(async () => {
      results = (await call<Results>("GET", `/experiments/${e.id}/results`)).body;
      return results.variants.reduce((n, v) => n + v.shoppers, 0) === sessions.length;
    }, 10_000);
    expect(counted).toBe(true);
    expect(results!.excluded).toMatchObject({ bots: 1, emptySearches: 1 });
    results!.variants.forEach((v, i) => {
      const want = expected[i]!;
      expect(v.shoppers).toBe(want.shoppers);
      expect(v.searches).toBe(want.shoppers);
      expect(v.clickThrough.shoppers).toBe(want.clicked);
      expect(v.conversion.shoppers).toBe(want.ordered);
      expect(v.revenue.EUR!.perShopper).toBeCloseTo(want.revenue / want.shoppers, 9);
    });
    expect(results!.variants[0]!.clickThrough.vsControl).toBeNull();
    expect(results!.variants[1]!.clickThrough.vsControl!.pValue).toBeGreaterThan(0);
    await call("POST", `/experiments/${e.id}/stop`);
  });
});
