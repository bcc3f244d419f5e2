import "./setup.ts";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { http, HttpResponse } from "msw";
import "../src/components/product-card/product-card.ts";
import "../src/components/recommendations/recommendations.ts";
import type { SfsRecommendations } from "../src/components/recommendations/recommendations.component.ts";
import { startWidget, type WidgetApp } from "../src/widget-app.ts";
import { searchResponse } from "./fixtures.ts";
import { api, clearPage, makeContext, mockService, settle, until } from "./helpers.ts";
import { API_ORIGIN } from "./setup.ts";

const asked: URL[] = [];
let products = () => searchResponse().products.map((product) => ({ product }));
const { server } = mockService([
  http.get(api("recommendations/:placement"), ({ request, params }) => {
    asked.push(new URL(request.url));
    return HttpResponse.json({ model: params.placement, fallback: null, products: products() });
  }),
]);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());
let app: WidgetApp | null = null;
afterEach(() => {
  clearPage(app);
  app = null;
  asked.length = 0;
  products = () => searchResponse().products.map((product) => ({ product }));
});

async function mount(placement: string, set: Partial<Pick<SfsRecommendations, "productId" | "category">> = {}) {
  const { context, calls } = makeContext();
  const el = document.createElement("sfs-recommendations");
  el.context = context;
  el.placement = placement;
  Object.assign(el, set);
  document.body.append(el);
  await el.updateComplete;
  await settle(5);
  if (asked.length) await until(() => !el.loading, "recommendations");
  await el.updateComplete;
  return { el, calls, root: el.shadowRoot! };
}

const params = (u: URL) => Object.fromEntries(u.searchParams);

describe("sfs-recommendations", () => {
  test("trending in a category: the carousel with its heading; a followed card is a ProductClick naming the placement", async () => {
    const { el, calls, root } = await mount("trending", { category: "Footwear > Shoes" });
    expect(asked.map((u) => u.pathname)).toEqual(["/1.9/recommendations/trending"]);
    expect(params(asked[0]!)).toEqual({ category: "Footwear > Shoes", pageSize: "24" });
    const section = root.querySelector('[part="base"]')!;
    expect(root.getElementById(section.getAttribute("aria-labelledby")!)!.textContent).toBe("Trending now");
    expect(root.querySelectorAll("sfs-product-card").length).toBe(3);
    expect(el.getAttribute("placement")).toBe("trending");
    const card = root.querySelector("sfs-product-card")!;
    await card.updateComplete;
    card
      .shadowRoot!.querySelector<HTMLAnchorElement>('[part="name-link"]')!
      .dispatchEvent(new MouseEvent("click", { bubbles: true, composed: true, cancelable: true }));
    expect(calls.tracked).toEqual([["ProductClick", { clickProductId: card.product!.productId, placement: "trending" }]]);
  });

  test("for you and recently viewed ask for the shopper's anonymous ids; bought together for its product", async () => {
    const forYou = await mount("for-you");
    expect(params(asked[0]!)).toEqual({ userId: "u1", sessionId: "s1", pageSize: "24" });
    expect(forYou.root.querySelector('[part="title"]')!.textContent).toBe("Recommended for you");
    await mount("recently-viewed");
    expect(asked[1]!.pathname).toBe("/1.9/recommendations/recently-viewed");
    const together = await mount("bought-together", { productId: "p1" });
    expect(params(asked[2]!)).toEqual({ productId: "p1", pageSize: "24" });
    expect(together.root.querySelector('[part="title"]')!.textContent).toBe("Frequently bought together");
  });

  test("nothing to ask (bought together without a product, an unknown placement) or nothing answered: hidden, no empty box", async () => {
    const noProduct = await mount("bought-together");
    const unknown = await mount("bestsellers");
    expect(asked).toEqual([]);
    expect(noProduct.root.querySelector('[part="base"]')).toBeNull();
    expect(unknown.root.querySelector('[part="base"]')).toBeNull();
    products = () => [];
    const empty = await mount("recently-viewed");
    expect(empty.el.hidden).toBe(true);
    expect(empty.root.querySelector('[part="base"]')).toBeNull();
  });
});

test("the head script mounts a placement in each data-sfs-recommend div, with its category or product", async () => {
  const slot = (placement: string, data: Record<string, string> = {}) => {
    const div = document.createElement("div");
    div.dataset.sfsRecommend = placement;
    Object.assign(div.dataset, data);
    return div;
  };
  const slots = [slot("trending", { category: "Apparel" }), slot("bought-together", { productId: "p7" }), slot("for-you")];
  document.body.append(...slots);
  app = await startWidget({ api: API_ORIGIN, storeId: "demo", searchKey: "pk_search_test" });
  expect(app.placements.map((p) => p.placement)).toEqual(["trending", "bought-together", "for-you"]);
  expect(slots.map((s) => s.firstElementChild)).toEqual(app.placements);
  await until(() => asked.length === 3, "three placements");
  expect(
    asked.map((u) => `${u.pathname.split("/").at(-1)} ${u.searchParams.get("category") ?? u.searchParams.get("productId") ?? ""}`).sort(),
  ).toEqual(["bought-together p7", "for-you ", "trending Apparel"]);
});
