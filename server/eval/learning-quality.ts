/*
 * Learning quality: does the store rank better for what its shoppers want once it has watched them shop?
 *
 * The real server (its own process, `products` indexed through POST /products, enrichment held so the catalog
 * stays as indexed for the whole run) is visited by simulated shoppers whose tastes are known, because they are drawn here from a seed:
 * - a population-level appeal: each product of the judged article types is a "hit" with probability HIT_SHARE,
 *   the same for every shopper (what behaviour ranking should learn);
 * - a personal taste: each shopper prefers one of the catalog's common colours (what personalisation should learn).
 * A shopper searches `GET /search` for an article type, looks down the page as shoppers do (the deeper, the less
 * likely: position bias), clicks what appeals to them, sometimes adds it to the cart and buys it, and reports all of
 * it through POST /tracking, as the widget would. Then, once the analytics worker has counted every order sent,
 * the first `judgedShoppers` shoppers search every judged query again (held out: these searches teach nothing), and nDCG@10 is taken
 * against the known tastes: grade 2 for a hit, 1 for the shopper's colour (3 for both), 0 for anything else or
 * another article type.
 *
 * Each held-out search is run three ways: with behaviour ranking and personalisation off (the store settings), with
 * both on but anonymous (behaviour alone), and with both on as the shopper (userId). In the A/A run the shoppers'
 * clicks ignore the product (every examined product appeals equally), so the tastes the figures are judged
 * against were never shown to the store: any gain there is noise.
 *
 *   bun server/eval/learning-quality.ts [--products 3000] [--shoppers 100] [--searches 4] [--judged 40] [--seed learning]
 */
import { seededRandom, type Rng } from "../../demo-store/src/catalog/seeded-random.ts";
import type { Product } from "../src/modules/catalog/product-schema.ts";
import { join } from "node:path";
import { numberArg, stringArg } from "../bench/bench-args.ts";
import { holdEnrichment } from "../bench/hold-enrichment.ts";
import { DEMO_KEYS } from "../test/support/child-server.ts";
import { startIndexedServer, type IndexedChildServer } from "../test/support/indexed-child-server.ts";
import { evalProducts } from "./catalog.ts";
import { labelsOf } from "./labels.ts";
import { K, mean, ndcgAt } from "./metrics.ts";

/** Article types searched for: the most common ones of the products, each with at least MIN_TYPE_PRODUCTS. */
const QUERY_TYPES = 8;
const MIN_TYPE_PRODUCTS = 40;
/** Colours common to every article type; a shopper's taste is one of them. */
const COLOURS = ["black", "white", "blue", "red"] as const;
/** Share of a type's products every shopper likes. */
const HIT_SHARE = 0.2;
/** Results a shopper's page shows (the widget's default). */
const PAGE_SIZE = 30;
/** Chance of looking at position p (1-based): p^-EXAMINATION, the shape the learner's prior assumes. */
const EXAMINATION = 0.7;
/** Chance of clicking a product looked at: BASE, plus for a hit and for the shopper's colour (taste-driven shoppers). */
const APPEAL = { base: 0.02, hit: 0.45, colour: 0.35 } as const;
/** A/A shoppers: every product looked at appeals this much, whatever it is. */
const FLAT_APPEAL = 0.2;
/** Clicks a shopper makes at most per search. */
const MAX_CLICKS = 3;
/** Of a click, the chance of a cart is this share of its appeal; of a cart, the chance of a purchase. */
const CART_SHARE = 0.5;
const PURCHASE_AFTER_CART = 0.3;
/** Tries of a write the server answers 503 (busy) before the run fails. */
const WRITE_ATTEMPTS = 5;
/** Enrichment is held this long: longer than any run. */
const HOLD_MS = 3_600_000;

export interface LearningOptions {
  products: readonly Product[];
  shoppers: number;
  /** Searches each shopper makes while the store learns (queries drawn from the judged ones). */
  searchesPerShopper: number;
  /** Shoppers whose held-out searches are judged (the first ones). */
  judgedShoppers: number;
  /** false: the A/A run, whose clicks ignore the product. */
  tasteDriven: boolean;
  seed: string;
}

export interface LearningFigures {
  queries: string[];
  /** Events sent while learning, and of them clicks and orders. */
  events: number;
  clicks: number;
  orders: number;
  /** Held-out searches judged per way (shoppers x queries). */
  judged: number;
  /** Mean nDCG@10 against the known tastes. */
  off: number;
  behaviourOnly: number;
  on: number;
}

interface Shopper {
  userId: string;
  sessionId: string;
  colour: (typeof COLOURS)[number];
}

interface Judged {
  query: string;
  type: string;
  /** Products of the type: whether every shopper likes it, and its colours. */
  products: Map<string, { hit: boolean; colours: string[] }>;
}

type Event = { type: string; data: Record<string, unknown>; userId: string; sessionId: string };

/** The judged queries: the commonest article types, each asked for by its name ("casual-shoes": "casual shoes"). */
function judgedQueries(products: readonly Product[], seed: string): Judged[] {
  const byType = new Map<string, Product[]>();
  for (const p of products) {
    const { type } = labelsOf(p, new Map());
    if (type) byType.set(type, [...(byType.get(type) ?? []), p]);
  }
  return [...byType]
    .filter(([, list]) => list.length >= MIN_TYPE_PRODUCTS)
    .sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))
    .slice(0, QUERY_TYPES)
    .map(([type, list]) => ({
      query: type.replaceAll("-", " "),
      type,
      products: new Map(
        list.map((p) => [p.id, { hit: seededRandom(seed, "hit", p.id).chance(HIT_SHARE), colours: labelsOf(p, new Map()).colours }]),
      ),
    }));
}

/** A shopper's grade of a product for a judged query (what nDCG is taken against). */
function gradeOf(judged: Judged, shopper: Shopper, productId: string): number {
  const p = judged.products.get(productId);
  if (!p) return 0;
  return (p.hit ? 2 : 0) + (p.colours.includes(shopper.colour) ? 1 : 0);
}

function gradesFor(judged: Judged, shopper: Shopper): Map<string, number> {
  const grades = new Map<string, number>();
  for (const id of judged.products.keys()) {
    const g = gradeOf(judged, shopper, id);
    if (g > 0) grades.set(id, g);
  }
  return grades;
}

/** The chance a shopper clicks a product they looked at. */
function appealOf(judged: Judged, shopper: Shopper, productId: string, tasteDriven: boolean): number {
  if (!tasteDriven) return FLAT_APPEAL;
  const p = judged.products.get(productId);
  if (!p) return APPEAL.base;
  return APPEAL.base + (p.hit ? APPEAL.hit : 0) + (p.colours.includes(shopper.colour) ? APPEAL.colour : 0);
}

class Store {
  constructor(private readonly server: IndexedChildServer) {}

  async search(params: Record<string, string>): Promise<string[]> {
    const res = await fetch(`${this.server.url}/1.9/search?${new URLSearchParams(params)}`, { headers: this.server.searchHeaders });
    if (!res.ok) throw new Error(`GET /search answered ${res.status}: ${await res.text()}`);
    return ((await res.json()) as { products: { productId: string }[] }).products.map((p) => p.productId);
  }

  async track(events: Event[]): Promise<void> {
    const res = await this.send(`${this.server.url}/1.9/tracking`, {
      method: "POST",
      headers: {
        "x-service-store-id": DEMO_KEYS.DEMO_STORE_ID,
        "x-service-api-key": DEMO_KEYS.DEMO_ANALYTICS_KEY,
        "content-type": "application/json",
      },
      body: JSON.stringify(events),
    });
    if (!res.ok) throw new Error(`POST /tracking answered ${res.status}: ${await res.text()}`);
  }

  async settings(body: { behaviourRanking: boolean; personalisation: boolean }): Promise<void> {
    const res = await this.send(`${this.server.url}/1.9/settings`, {
      method: "PATCH",
      headers: { ...this.server.adminHeaders, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`PATCH /settings answered ${res.status}: ${await res.text()}`);
  }

  /**
   * A write, sent again after Retry-After while the server answers 503 (what the answer asks of a client): on a loaded
   * machine another thread of the server may hold the database past the busy timeout.
   */
  private async send(url: string, init: RequestInit): Promise<Response> {
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(url, init);
      if (res.status !== 503 || attempt === WRITE_ATTEMPTS) return res;
      await res.arrayBuffer();
      await Bun.sleep(Number(res.headers.get("retry-after") ?? 1) * 1000);
    }
  }

  /** Waits until the analytics worker counted `orders` orders (a report counts what is waiting before it answers). */
  async counted(orders: number, timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await fetch(`${this.server.url}/1.9/reports/overview`, { headers: this.server.adminHeaders });
      if (!res.ok) throw new Error(`GET /reports/overview answered ${res.status}`);
      const counted = ((await res.json()) as { orders: number }).orders;
      if (counted >= orders) return;
      if (Date.now() > deadline) throw new Error(`the analytics worker counted ${counted} of ${orders} orders`);
      await Bun.sleep(50);
    }
  }
}

/** One search of a shopper while the store learns: what they see, click, cart and buy. */
function visit(
  judged: Judged,
  shopper: Shopper,
  shown: readonly string[],
  o: { tasteDriven: boolean; random: Rng; orderId: () => string },
): Event[] {
  const listing = { query: judged.query, productIds: shown, pageSize: PAGE_SIZE };
  const event = (type: string, data: Record<string, unknown>): Event => ({
    type,
    data,
    userId: shopper.userId,
    sessionId: shopper.sessionId,
  });
  const events = [event("Search", { ...listing, totalProducts: shown.length })];
  let clicks = 0;
  for (let i = 0; i < shown.length && clicks < MAX_CLICKS; i++) {
    const id = shown[i]!;
    const appeal = appealOf(judged, shopper, id, o.tasteDriven);
    if (!o.random.chance((i + 1) ** -EXAMINATION * appeal)) continue;
    clicks++;
    events.push(event("ProductClick", { ...listing, page: 1, clickProductId: id }));
    if (!o.random.chance(CART_SHARE * appeal)) continue;
    events.push(event("AddToCart", { ...listing, page: 1, addProductId: id, qty: 1 }));
    if (o.random.chance(PURCHASE_AFTER_CART))
      events.push(event("Purchase", { orderId: o.orderId(), products: [{ id, price: 20, qty: 1 }] }));
  }
  return events;
}

/** Runs one store through learning and the held-out searches; the server is started and stopped here. */
export async function measureLearning(o: LearningOptions): Promise<LearningFigures> {
  const queries = judgedQueries(o.products, o.seed);
  if (queries.length === 0) throw new Error(`no article type has ${MIN_TYPE_PRODUCTS} products`);
  const random = seededRandom(o.seed, o.tasteDriven ? "taste" : "a/a");
  const shoppers: Shopper[] = Array.from({ length: o.shoppers }, (_, i) => ({
    userId: `shopper-${i}`,
    sessionId: `visit-${i}`,
    colour: random.pick(COLOURS),
  }));
  const server = await startIndexedServer(o.products);
  const store = new Store(server);
  try {
    holdEnrichment(join(server.dataDir, "service.db"), Date.now() + HOLD_MS);
    let events = 0;
    let clicks = 0;
    let orders = 0;
    const orderId = () => `order-${++orders}`;
    for (let round = 0; round < o.searchesPerShopper; round++) {
      for (const shopper of shoppers) {
        const judged = random.pick(queries);
        const shown = await store.search({
          query: judged.query,
          pageSize: String(PAGE_SIZE),
          userId: shopper.userId,
          sessionId: shopper.sessionId,
        });
        const sent = visit(judged, shopper, shown, { tasteDriven: o.tasteDriven, random, orderId });
        events += sent.length;
        clicks += sent.filter((e) => e.type === "ProductClick").length;
        await store.track(sent);
      }
    }
    await store.counted(orders);

    const page = (query: string, shopper: Shopper | null) =>
      store.search({ query, pageSize: String(K), ...(shopper ? { userId: shopper.userId, sessionId: shopper.sessionId } : {}) });
    // Without personalisation a search's answer is the same for every shopper: asked once per query.
    await store.settings({ behaviourRanking: false, personalisation: false });
    const off = new Map(await Promise.all(queries.map(async (q) => [q.query, await page(q.query, null)] as const)));
    await store.settings({ behaviourRanking: true, personalisation: true });
    const anonymous = new Map(await Promise.all(queries.map(async (q) => [q.query, await page(q.query, null)] as const)));
    const scores = { off: [] as number[], behaviourOnly: [] as number[], on: [] as number[] };
    for (const shopper of shoppers.slice(0, o.judgedShoppers)) {
      for (const judged of queries) {
        const grades = gradesFor(judged, shopper);
        scores.off.push(ndcgAt(K, off.get(judged.query)!, grades));
        scores.behaviourOnly.push(ndcgAt(K, anonymous.get(judged.query)!, grades));
        scores.on.push(ndcgAt(K, await page(judged.query, shopper), grades));
      }
    }
    return {
      queries: queries.map((q) => q.query),
      events,
      clicks,
      orders,
      judged: scores.on.length,
      off: mean(scores.off),
      behaviourOnly: mean(scores.behaviourOnly),
      on: mean(scores.on),
    };
  } finally {
    await server.stop();
  }
}

export function describeFigures(name: string, f: LearningFigures): string {
  return (
    `${name}: nDCG@${K} off ${f.off.toFixed(4)}, behaviour only ${f.behaviourOnly.toFixed(4)} (${signed(f.behaviourOnly - f.off)}), ` +
    `behaviour + personalisation ${f.on.toFixed(4)} (${signed(f.on - f.off)}); ${f.judged} held-out searches; learnt from ` +
    `${f.events.toLocaleString("en")} events (${f.clicks.toLocaleString("en")} clicks, ${f.orders} orders)`
  );
}

const signed = (v: number) => `${v >= 0 ? "+" : ""}${v.toFixed(4)}`;

if (import.meta.main) {
  const products = evalProducts(numberArg("--products", 3000));
  const common = {
    products,
    shoppers: numberArg("--shoppers", 100),
    searchesPerShopper: numberArg("--searches", 4),
    judgedShoppers: numberArg("--judged", 40),
    seed: stringArg("--seed", "learning"),
  };
  const taste = await measureLearning({ ...common, tasteDriven: true });
  console.log(`queries: ${taste.queries.join(", ")}`);
  console.log(describeFigures("known tastes", taste));
  console.log(describeFigures("A/A (clicks ignore the product)", await measureLearning({ ...common, tasteDriven: false })));
}
