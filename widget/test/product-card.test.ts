import "./setup.ts";
import { afterEach, describe, expect, test } from "bun:test";
import "../src/components/product-card/product-card.ts";
import type { SfsProductCard } from "../src/components/product-card/product-card.component.ts";
import { DEFAULT_TEXTS } from "@storefront-search/contract";
import { createPriceFormat } from "../src/format/price-format.ts";
import { onSale, product } from "./fixtures.ts";

async function card(p = product(1)): Promise<SfsProductCard> {
  const el = document.createElement("sfs-product-card");
  el.product = p;
  el.texts = DEFAULT_TEXTS;
  el.priceFormat = createPriceFormat("en-IN", { code: "INR", display: "symbol" });
  document.body.append(el);
  await el.updateComplete;
  return el;
}
const $ = <T extends Element = HTMLElement>(el: SfsProductCard, sel: string) => el.shadowRoot!.querySelector<T>(sel)!;
const $$ = (el: SfsProductCard, sel: string) => [...el.shadowRoot!.querySelectorAll<HTMLElement>(sel)];

afterEach(() => document.body.replaceChildren());

describe("<sfs-product-card>", () => {
  test("accessibility: one named link, a labelled rating, swatches as pressed/unpressed buttons, decorative image", async () => {
    const el = await card();
    const links = $$(el, "a").filter((a) => a.getAttribute("aria-hidden") !== "true");
    expect(links).toHaveLength(1);
    expect(links[0]!.textContent!.trim()).toBe("Cotton Kurta 1");
    expect(links[0]!.closest("h3")).not.toBeNull();
    const imageLink = $(el, "[part~=image-link]");
    expect(imageLink.getAttribute("aria-hidden")).toBe("true");
    expect(imageLink.getAttribute("tabindex")).toBe("-1");
    expect($(el, "img[part~=image]").getAttribute("alt")).toBe("");
    const rating = $(el, "[part~=rating]");
    expect(rating.getAttribute("role")).toBe("img");
    expect(rating.getAttribute("aria-label")).toBe("Rated 4.3 out of 5, 87 reviews");
    expect(rating.textContent).toContain("4.3/5");
    const swatches = $$(el, "button[part~=swatch]");
    expect(swatches.map((b) => [b.getAttribute("aria-label"), b.getAttribute("aria-pressed")])).toEqual([
      ["Indigo", "true"],
      ["Rust", "false"],
    ]);
    expect($(el, "[part~=swatches]").getAttribute("aria-label")).toBe("Colours");
  });

  test("image srcset from the default colour's first image: s 200w, m 400w, l 800w", async () => {
    const el = await card();
    const img = $<HTMLImageElement>(el, "img[part~=image]");
    expect(img.getAttribute("src")).toBe("https://cdn.shop.example/kurta-1-indigo-m.jpg");
    expect(img.getAttribute("srcset")).toBe(
      "https://cdn.shop.example/kurta-1-indigo-s.jpg 200w, https://cdn.shop.example/kurta-1-indigo-m.jpg 400w, https://cdn.shop.example/kurta-1-indigo-l.jpg 800w",
    );
    expect(img.getAttribute("sizes")).toBeTruthy();
    expect(img.getAttribute("loading")).toBe("lazy");
  });

  test("price: the promotional price, and the initial price struck through; currency from Intl.NumberFormat", async () => {
    const el = await card(onSale);
    expect($(el, "[part~=current-price]").textContent).toBe("₹1,499");
    expect($(el, "[part~=current-price]").getAttribute("part")).toContain("sale-price");
    const struck = $(el, "s[part~=original-price]");
    expect(struck.textContent).toBe("Original price: ₹2,499");
    expect($(el, "s .visually-hidden").textContent).toBe("Original price: ");
    const plain = await card(product(2));
    expect($(plain, "[part~=price]").textContent!.trim()).toBe("₹1,299");
    expect($(plain, "s")).toBeNull();
  });

  test("a swatch switches the image and the link to that colour and says so", async () => {
    const el = await card();
    const chosen: unknown[] = [];
    el.addEventListener("sfs-color-select", (e) => chosen.push(e.detail));
    $$(el, "button[part~=swatch]")[1]!.click();
    await el.updateComplete;
    expect($(el, "img[part~=image]").getAttribute("src")).toBe("https://cdn.shop.example/kurta-1-rust-m.jpg");
    expect($(el, "[part~=name-link]").getAttribute("href")).toBe("https://shop.example/products/kurta-1?color=rust");
    expect($$(el, "button[part~=swatch]").map((b) => b.getAttribute("aria-pressed"))).toEqual(["false", "true"]);
    expect(chosen).toEqual([{ productId: "kurta-1", colorId: "rust" }]);
  });

  test("badges from customUserData.badges; following the link emits sfs-product-click (composed)", async () => {
    const el = await card();
    expect($$(el, "[part~=badge]").map((b) => b.textContent)).toEqual(["New", "Organic"]);
    const clicks: unknown[] = [];
    document.addEventListener("sfs-product-click", (e) => clicks.push(e.detail), { once: true });
    const link = $<HTMLAnchorElement>(el, "[part~=name-link]");
    link.addEventListener("click", (e) => e.preventDefault()); // stay on the page
    link.click();
    expect(clicks).toEqual([{ productId: "kurta-1", url: "https://shop.example/products/kurta-1?color=indigo" }]);
  });

  test("catalog text is rendered as text, never as markup", async () => {
    const el = await card(product(3, { name: '<img src=x onerror="alert(1)">Kurta', designer: "<b>Brand</b>" }));
    expect($(el, "[part~=name-link]").textContent).toBe('<img src=x onerror="alert(1)">Kurta');
    expect($(el, "[part~=name] img")).toBeNull();
    expect($(el, "[part~=designer] b")).toBeNull();
  });
});
