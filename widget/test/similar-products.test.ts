import "./setup.ts";
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { http, HttpResponse } from "msw";
import "../src/components/product-card/product-card.ts";
import "../src/components/similar-products/similar-products.ts";
import type { SfsSimilarProducts } from "../src/components/similar-products/similar-products.component.ts";
import { searchResponse } from "./fixtures.ts";
import { api, FakeObserver, makeContext, mockService, settle, until } from "./helpers.ts";

const asked: URL[] = [];
let answer: () => Response = () =>
  HttpResponse.json({
    totalProductCount: 3,
    products: searchResponse().products.map((product) => ({ product })),
    facets: [],
    sourceProduct: { productId: "src", name: "Source" },
  });
const { server } = mockService([
  http.get(api("similarity"), ({ request }) => {
    asked.push(new URL(request.url));
    return answer();
  }),
]);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());
afterEach(() => {
  asked.length = 0;
  document.body.replaceChildren();
});

async function mount(productId = "src", variantId = "") {
  const { context, calls } = makeContext();
  const el = document.createElement("sfs-similar-products") as SfsSimilarProducts;
  el.context = context;
  el.productId = productId;
  el.variantId = variantId;
  document.body.append(el);
  await until(() => !el.loading && asked.length > 0, "similar products");
  await el.updateComplete;
  await settle(5);
  return { el, calls, root: el.shadowRoot! };
}

test("a labelled region with a scrolling list of product cards, asked with the product and its variant", async () => {
  const restore = FakeObserver.install();
  try {
    const { el, calls, root } = await mount("src", "src-red");
    expect(Object.fromEntries(asked[0]!.searchParams)).toEqual({ productId: "src", variantId: "src-red", pageSize: "24" });
    const section = root.querySelector('[part="base"]')!;
    expect(root.getElementById(section.getAttribute("aria-labelledby")!)!.textContent).toBe("You may also like");
    const list = root.querySelector('[part="list"]')!;
    expect(list.querySelectorAll("sfs-product-card").length).toBe(3);
    expect(root.querySelector('[part="next"]')!.getAttribute("aria-controls")).toBe(list.id);
    expect(el.hidden).toBe(false);
    // Seen once it is half in view, once only.
    expect(calls.tracked.filter(([type]) => type === "ViewSimilarProducts")).toEqual([]);
    FakeObserver.last!.show(0.2);
    FakeObserver.last!.show(0.8);
    FakeObserver.last!.show(1);
    expect(calls.tracked.filter(([type]) => type === "ViewSimilarProducts")).toEqual([["ViewSimilarProducts", { productId: "src" }]]);
    // A followed card is a SimilarProductClick: the product shown with it, and the one clicked.
    const card = list.querySelector("sfs-product-card")!;
    await card.updateComplete;
    card
      .shadowRoot!.querySelector<HTMLAnchorElement>('[part="name-link"]')!
      .dispatchEvent(new MouseEvent("click", { bubbles: true, composed: true, cancelable: true }));
    const clicked = calls.tracked.filter(([type]) => type === "SimilarProductClick");
    expect(clicked).toEqual([["SimilarProductClick", { similarProductId: "src", clickProductId: card.product!.productId }]]);
  } finally {
    restore();
  }
});

test("nothing similar, or a failed request, hides it: no empty box", async () => {
  answer = () => HttpResponse.json({ totalProductCount: 0, products: [], facets: [], sourceProduct: { productId: "src", name: "Source" } });
  const empty = await mount();
  expect(empty.el.hidden).toBe(true);
  expect(empty.root.querySelector('[part="base"]')).toBeNull();
  answer = () => HttpResponse.json({ message: "No product", code: "not_found" }, { status: 404 });
  const failed = await mount("gone");
  expect(failed.el.hidden).toBe(true);
  expect(failed.calls.tracked).toEqual([]);
});
