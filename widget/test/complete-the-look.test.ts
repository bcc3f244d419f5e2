import "./setup.ts";
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { http, HttpResponse } from "msw";
import type { CtlProduct, CtlResponse } from "@storefront-search/contract";
import "../src/components/product-card/product-card.ts";
import "../src/components/complete-the-look/complete-the-look.ts";
import type { SfsCompleteTheLook } from "../src/components/complete-the-look/complete-the-look.component.ts";
import type { SfsProductCard } from "../src/components/product-card/product-card.component.ts";
import type { CartItem } from "../src/core/widget-context.ts";
import { product } from "./fixtures.ts";
import { api, FakeObserver, makeContext, mockService, settle, until } from "./helpers.ts";

const item = (n: number, internalCategory: string, overrides: Partial<CtlProduct> = {}): CtlProduct => ({
  ...product(n),
  gender: "Women",
  internalCategory,
  ...overrides,
});
const source = item(1, "top", { name: "Indigo Kurta" });
/** Three looks; kurta-2 is in the first and the last; the second has five products (two popup pages). */
const looks: CtlProduct[][] = [
  [item(2, "bottom"), item(3, "shoes", { price: { min: 999, max: 1499, first: 1199 } })],
  [item(4, "bottom"), item(5, "shoes"), item(6, "bag"), item(7, "jewellery"), item(8, "outerwear")],
  [item(2, "bottom"), item(9, "bag")],
];
const LOOK_IDS = [
  ["kurta-2", "kurta-3"],
  ["kurta-4", "kurta-5", "kurta-6", "kurta-7", "kurta-8"],
  ["kurta-2", "kurta-9"],
];
const RELATED = ["kurta-2", "kurta-3", "kurta-4", "kurta-5", "kurta-6", "kurta-7", "kurta-8", "kurta-9"];
const COMMON = { query: "", facets: [], sortBy: "", region: "IN", language: "en", currency: "INR", baseProductId: "kurta-1" };

const asked: URL[] = [];
let answer: () => Response = () => HttpResponse.json({ ctlProducts: looks, sourceProduct: source } satisfies CtlResponse);
const { server } = mockService([
  http.get(api("ctl"), ({ request }) => {
    asked.push(new URL(request.url));
    return answer();
  }),
]);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());
let restoreObserver = () => {};
afterEach(() => {
  asked.length = 0;
  answer = () => HttpResponse.json({ ctlProducts: looks, sourceProduct: source });
  document.body.replaceChildren();
  restoreObserver();
});

async function mount(width = 0) {
  restoreObserver = FakeObserver.install();
  const { context, calls } = makeContext();
  const el = document.createElement("sfs-complete-the-look") as SfsCompleteTheLook;
  el.context = context;
  el.productId = "kurta-1";
  el.variantId = "kurta-1-indigo";
  document.body.append(el);
  await until(() => !el.loading && asked.length > 0, "looks");
  if (width) el.fit.measure(width);
  await render(el);
  const root = el.shadowRoot!;
  const events = (type: string) => calls.tracked.filter(([t]) => t === type).map(([, data]) => data);
  const viewButtons = () => Array.from(root.querySelectorAll<HTMLButtonElement>('[part="view-look"]'));
  const dialog = () => root.querySelector("dialog");
  const cardsIn = (scope: ParentNode) => Array.from(scope.querySelectorAll<SfsProductCard>("sfs-product-card"));
  return { el, context, calls, root, events, viewButtons, dialog, cardsIn };
}

/** Lets the element and its cards render. */
async function render(el: SfsCompleteTheLook) {
  await el.updateComplete;
  await settle(5);
  await Promise.all(Array.from(el.shadowRoot!.querySelectorAll<SfsProductCard>("sfs-product-card"), (c) => c.updateComplete));
}

const follow = async (card: SfsProductCard) => {
  await card.updateComplete;
  card
    .shadowRoot!.querySelector('[part="name-link"]')!
    .dispatchEvent(new MouseEvent("click", { bubbles: true, composed: true, cancelable: true }));
};
const key = (target: Element, k: string, shiftKey = false) =>
  target.dispatchEvent(new KeyboardEvent("keydown", { key: k, shiftKey, bubbles: true, composed: true, cancelable: true }));
/** The focused element, looked for through shadow roots. */
function focused(root: ShadowRoot): Element | null {
  let active = root.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

test("a labelled region of looks, each the source product and its items with a View Look button numbered overall", async () => {
  const { el, root, viewButtons, cardsIn } = await mount(1200);
  expect(Object.fromEntries(asked[0]!.searchParams)).toEqual({ productId: "kurta-1", variantId: "kurta-1-indigo" });
  const section = root.querySelector('[part="base"]')!;
  expect(root.getElementById(section.getAttribute("aria-labelledby")!)!.textContent).toBe("Complete the look");
  expect(el.hidden).toBe(false);
  // 1200 px hold four looks: all three on one page, no paging buttons.
  expect(viewButtons().map((b) => b.textContent)).toEqual(["View Look 1", "View Look 2", "View Look 3"]);
  expect(root.querySelector('[part="next"]')).toBeNull();
  const lookEls = Array.from(root.querySelectorAll('[part="look"]'));
  expect(lookEls.map((l) => cardsIn(l).map((c) => c.product!.productId))).toEqual(LOOK_IDS.map((ids) => ["kurta-1", ...ids]));
  const first = lookEls[0]!.querySelector('[part="product source"]')!;
  expect(first.querySelector('[part="this-item"]')!.textContent).toBe("This item");
  // The cards show name and price; images are lazy.
  const card = cardsIn(lookEls[0]!)[2]!;
  expect(card.shadowRoot!.querySelector('[part="name"]')!.textContent).toBe("Cotton Kurta 3");
  expect(card.shadowRoot!.querySelector('[part="current-price"]')!.textContent).toBe("₹1,299");
  expect(card.shadowRoot!.querySelector('[part="image"]')!.getAttribute("loading")).toBe("lazy");
  // Narrower: one look per page; the numbers stay those of the looks' places.
  el.fit.measure(320);
  await render(el);
  expect(viewButtons().map((b) => b.textContent)).toEqual(["View Look 1"]);
  (root.querySelector('[part="next"]') as HTMLButtonElement).click();
  await render(el);
  (root.querySelector('[part="next"]') as HTMLButtonElement).click();
  await render(el);
  expect(viewButtons().map((b) => b.textContent)).toEqual(["View Look 3"]);
  expect(root.querySelector('[part="next"]')!.getAttribute("aria-disabled")).toBe("true");
  expect(root.querySelector('[part="next"]')!.getAttribute("aria-controls")).toBe(root.querySelector('[part="list"]')!.id);
});

test("no looks, or a failed request, hides it: no empty box", async () => {
  answer = () => HttpResponse.json({ ctlProducts: [], sourceProduct: source });
  const empty = await mount();
  expect(empty.el.hidden).toBe(true);
  expect(empty.root.querySelector('[part="base"]')).toBeNull();
  document.body.replaceChildren();
  restoreObserver();
  answer = () => HttpResponse.json({ message: "No product", code: "not_found" }, { status: 404 });
  const failed = await mount();
  expect(failed.el.hidden).toBe(true);
  expect(failed.root.querySelector('[part="base"]')).toBeNull();
  expect(failed.calls.tracked).toEqual([]);
});

test("CTLLoad once the carousel is half in view; paging sends CTLPageChange with the page turned to", async () => {
  const { el, root, events, viewButtons } = await mount();
  // happy-dom has no width: one look per page.
  expect(events("CTLLoad")).toEqual([]);
  FakeObserver.last!.show(0.3);
  FakeObserver.last!.show(0.6);
  FakeObserver.last!.show(1);
  expect(events("CTLLoad")).toEqual([{ ...COMMON, productIds: LOOK_IDS[0], pageSize: 1, relatedProducts: RELATED, totalProducts: 8 }]);

  const previous = root.querySelector<HTMLButtonElement>('[part="previous"]')!;
  expect(previous.getAttribute("aria-disabled")).toBe("true");
  previous.click(); // at the start: nothing
  expect(events("CTLPageChange")).toEqual([]);
  root.querySelector<HTMLButtonElement>('[part="next"]')!.click();
  await render(el);
  expect(viewButtons().map((b) => b.textContent)).toEqual(["View Look 2"]);
  expect(events("CTLPageChange")).toEqual([
    { ...COMMON, productIds: LOOK_IDS[1], pageSize: 1, relatedProducts: RELATED, totalProducts: 8, pageFrom: 1, pageTo: 2 },
  ]);
  root.querySelector<HTMLButtonElement>('[part="previous"]')!.click();
  await render(el);
  expect(events("CTLPageChange").at(-1)).toMatchObject({ pageFrom: 2, pageTo: 1, productIds: LOOK_IDS[0] });
});

test("a followed product of a look preview is CTLProductClick, placed in relatedProducts; the source's own card sends nothing", async () => {
  const { root, events, cardsIn } = await mount(1200);
  const [look1, , look3] = Array.from(root.querySelectorAll('[part="look"]'));
  await follow(cardsIn(look1!)[2]!);
  await follow(cardsIn(look3!)[2]!);
  await follow(cardsIn(look1!)[0]!); // the source
  const common = { ...COMMON, productIds: RELATED, pageSize: 4, relatedProducts: RELATED, totalProducts: 8 };
  expect(events("CTLProductClick")).toEqual([
    { ...common, selectedProduct: { productId: "kurta-3", position: 2, internalCategory: "shoes" } },
    { ...common, selectedProduct: { productId: "kurta-9", position: 8, internalCategory: "bag" } },
  ]);
});

test("View Look opens a modal dialog labelled by its heading; focus moves in, Tab wraps, Escape closes and focus returns", async () => {
  const { el, root, events, viewButtons, dialog } = await mount(1200);
  const opener = viewButtons()[1]!;
  opener.click();
  await render(el);
  expect(events("CTLViewLookClick")).toEqual([
    { ...COMMON, productIds: RELATED, pageSize: 4, relatedProducts: RELATED, totalProducts: 8, position: 2 },
  ]);
  const d = dialog()!;
  expect(d.open).toBe(true);
  expect(d.getAttribute("role")).toBe("dialog");
  expect(d.getAttribute("aria-modal")).toBe("true");
  expect(root.getElementById(d.getAttribute("aria-labelledby")!)!.textContent).toBe("Look 2");
  const close = d.querySelector<HTMLButtonElement>('[part="close"]')!;
  expect(close.getAttribute("aria-label")).toBe("Close");
  expect(focused(root)).toBe(close);

  // Shift+Tab on the first stop goes to the last (the popup's next button), Tab on the last back to the first.
  const next = d.querySelector<HTMLButtonElement>('[part="dialog-next"]')!;
  key(close, "Tab", true);
  expect(focused(root)).toBe(next);
  key(next, "Tab");
  expect(focused(root)).toBe(close);
  // In between, Tab is the browser's.
  expect(key(close, "Tab")).toBe(true);

  key(close, "Escape");
  await render(el);
  expect(dialog()).toBeNull();
  expect(focused(root)).toBe(opener);

  // The close button and the dialog's cancel (a close request) close it as well.
  opener.click();
  await render(el);
  dialog()!.querySelector<HTMLButtonElement>('[part="close"]')!.click();
  await render(el);
  expect(dialog()).toBeNull();
  viewButtons()[0]!.click();
  await render(el);
  dialog()!.dispatchEvent(new Event("cancel", { cancelable: true }));
  await render(el);
  expect(dialog()).toBeNull();
  expect(focused(root)).toBe(viewButtons()[0]!);
  expect(events("CTLViewLookClick").map((e) => e.position)).toEqual([2, 2, 1]);
});

test("without a link to follow, Tab wraps over the cards' own links", async () => {
  const { el, root, viewButtons, dialog, cardsIn } = await mount(1200);
  viewButtons()[0]!.click(); // two products: one page, no paging buttons, no cart hook
  await render(el);
  const d = dialog()!;
  expect(d.querySelector('[part="dialog-next"]')).toBeNull();
  const lastLink = cardsIn(d).at(-1)!.shadowRoot!.querySelector<HTMLElement>('[part="name-link"]')!;
  lastLink.focus();
  expect(focused(root)).toBe(lastLink);
  key(lastLink, "Tab");
  expect(focused(root)).toBe(d.querySelector('[part="close"]'));
});

test("the popup pages three products at a time (CTLPopupPageChange) and reports followed products as CTLPopupProductClick", async () => {
  const { el, events, viewButtons, dialog, cardsIn } = await mount(1200);
  viewButtons()[1]!.click();
  await render(el);
  const shown = () => cardsIn(dialog()!.querySelector('[part="dialog-list"]')!).map((c) => c.product!.productId);
  expect(shown()).toEqual(["kurta-1", "kurta-4", "kurta-5", "kurta-6"]);
  const look2 = { ...COMMON, pageSize: 3, relatedProducts: LOOK_IDS[1], totalProducts: 5 };

  await follow(cardsIn(dialog()!)[2]!);
  expect(events("CTLPopupProductClick")).toEqual([
    { ...look2, productIds: LOOK_IDS[1]!.slice(0, 3), selectedProduct: { productId: "kurta-5", position: 2, internalCategory: "shoes" } },
  ]);

  dialog()!.querySelector<HTMLButtonElement>('[part="dialog-next"]')!.click();
  await render(el);
  expect(shown()).toEqual(["kurta-1", "kurta-7", "kurta-8"]);
  expect(events("CTLPopupPageChange")).toEqual([{ ...look2, productIds: ["kurta-7", "kurta-8"], pageFrom: 1, pageTo: 2 }]);
  expect(dialog()!.querySelector('[part="dialog-next"]')!.getAttribute("aria-disabled")).toBe("true");
  await follow(cardsIn(dialog()!)[2]!);
  expect(events("CTLPopupProductClick").at(-1)).toEqual({
    ...look2,
    productIds: ["kurta-7", "kurta-8"],
    selectedProduct: { productId: "kurta-8", position: 5, internalCategory: "outerwear" },
  });
  // The carousel's own events were not sent for the popup.
  expect(events("CTLPageChange")).toEqual([]);
  expect(events("CTLProductClick")).toEqual([]);
});

test("Add to cart: only with a cart hook; what the hook took is reported as AddToCart and says Added; false is not added", async () => {
  const { el, context, events, viewButtons, dialog } = await mount(1200);
  viewButtons()[0]!.click();
  await render(el);
  expect(dialog()!.querySelectorAll('[part="add-to-cart"]')).toHaveLength(0);
  el.opened = -1;
  await render(el);

  const received: CartItem[] = [];
  let result: boolean | undefined;
  context.cart = () => async (cartItem) => {
    received.push(cartItem);
    await settle(1);
    return result;
  };
  viewButtons()[0]!.click();
  await render(el);
  const buttons = () => Array.from(dialog()!.querySelectorAll<HTMLButtonElement>('[part="add-to-cart"]'));
  expect(buttons().map((b) => b.getAttribute("aria-label"))).toEqual([
    "Add to cart: Indigo Kurta",
    "Add to cart: Cotton Kurta 2",
    "Add to cart: Cotton Kurta 3",
  ]);

  buttons()[2]!.click();
  await until(() => events("AddToCart").length === 1, "AddToCart");
  await render(el);
  expect(received).toEqual([
    { productId: "kurta-3", name: "Cotton Kurta 3", price: 1199, url: "https://shop.example/products/kurta-3", qty: 1 },
  ]);
  expect(events("AddToCart")).toEqual([
    {
      query: "",
      productIds: LOOK_IDS[0],
      facets: [],
      pageSize: 3,
      sortBy: "",
      region: "IN",
      language: "en",
      currency: "INR",
      page: 1,
      totalProducts: 2,
      addProductId: "kurta-3",
      qty: 1,
      price: 1199,
    },
  ]);
  expect(buttons()[2]!.textContent).toBe("Added");
  expect(dialog()!.querySelector('[role="status"]')!.textContent).toBe("Cotton Kurta 3: Added");

  // The source product goes with the page's variant.
  result = true;
  buttons()[0]!.click();
  await until(() => events("AddToCart").length === 2, "second AddToCart");
  expect(received[1]).toEqual({
    productId: "kurta-1",
    variantId: "kurta-1-indigo",
    name: "Indigo Kurta",
    price: 1299,
    url: "https://shop.example/products/kurta-1",
    qty: 1,
  });

  // false, or a hook that throws: not added, nothing reported.
  result = false;
  buttons()[1]!.click();
  await until(() => received.length === 3, "the hook called");
  await settle(10);
  await render(el);
  context.cart = () => () => {
    throw new Error("cart full");
  };
  buttons()[1]!.click();
  await settle(10);
  await render(el);
  expect(events("AddToCart")).toHaveLength(2);
  expect(buttons()[1]!.textContent).toBe("Add to cart");
});
