import { describe, expect, test } from "bun:test";
import { colorHex, colorHexes, colorTable, findColorPhrase } from "../../src/catalog/colors.ts";
import {
  IMAGE_FAMILIES,
  IMAGE_SIZE_PX,
  parseImagePath,
  productImageUrl,
  renderImage,
  renderProductSvg,
  renderSwatchSvg,
  swatchUrl,
} from "../../src/catalog/images.ts";

const BASE = "http://localhost:8080";

/** The path and query of a generated URL, as a web server would see them. */
function split(url: string): [string, string] {
  const u = new URL(url);
  return [u.pathname, u.search];
}

describe("image URLs", () => {
  test("product URL round-trips through parseImagePath for every family and size", () => {
    for (const family of IMAGE_FAMILIES) {
      for (const size of ["s", "m", "l"] as const) {
        const colors = ["#1b2a4a", "#8a8a8a"];
        const [path, search] = split(productImageUrl(BASE, family, colors, size));
        expect(parseImagePath(path, search)).toEqual({ kind: "product", family, colors, size });
      }
    }
  });

  test("swatch URL round-trips", () => {
    const [path, search] = split(swatchUrl(BASE, ["#111111", "#c62828", "#fdd835"]));
    expect(path).toBe("/images/swatches/111111-c62828-fdd835.svg");
    expect(parseImagePath(path, search)).toEqual({ kind: "swatch", colors: ["#111111", "#c62828", "#fdd835"] });
  });

  test("size defaults to m; URLSearchParams are accepted", () => {
    expect(parseImagePath("/images/products/top/ffffff.svg", "")).toMatchObject({ size: "m" });
    // A bare "?" is what URL parsers report as an empty search.
    expect(parseImagePath("/images/products/top/ffffff.svg", "?")).toMatchObject({ size: "m" });
    expect(parseImagePath("/images/products/top/ffffff.svg", new URLSearchParams("size=l"))).toMatchObject({
      size: "l",
    });
  });

  test("anything off the scheme is rejected", () => {
    const bad: Array<[string, string]> = [
      ["/images/products/top/1B2A4A.svg", ""], // upper-case hex
      ["/images/products/top/1b2a4.svg", ""], // short hex
      ["/images/products/top/1b2a4a.png", ""],
      ["/images/products/top/1b2a4a.svg/", ""],
      ["/images/products/robot/1b2a4a.svg", ""], // unknown family
      ["/images/products/TOP/1b2a4a.svg", ""],
      ["/images/products/top/111111-222222-333333-444444.svg", ""], // more than 3 colours
      ["/images/products/top/1b2a4a-.svg", ""],
      ["/images/products/../products/top/1b2a4a.svg", ""],
      ["/images/products/top/%31b2a4a.svg", ""], // encoded characters
      ["/images/products/top//1b2a4a.svg", ""],
      ["//images/products/top/1b2a4a.svg", ""],
      ["/images/products/top/1b2a4a.svg", "?size=xl"],
      ["/images/products/top/1b2a4a.svg", "?size=m&size=l"],
      ["/images/products/top/1b2a4a.svg", "?size=m&x=1"],
      ["/images/products/top/1b2a4a.svg", "?size=%6d"],
      ["/images/swatches/1b2a4a.svg", "?size=m"], // swatches take no parameters
      ["/images/swatches/ggggggg.svg", ""],
      ["/images/products/top/1b2a4a.svg\n", ""],
      ["/other/1b2a4a.svg", ""],
      ["", ""],
      ["/images/products/top/" + "1b2a4a-".repeat(40) + "1b2a4a.svg", ""],
    ];
    for (const [path, search] of bad) expect(parseImagePath(path, search)).toBeNull();
    expect(parseImagePath("/images/products/top/1b2a4a.svg", new URLSearchParams("size=m&evil=1"))).toBeNull();
  });
});

describe("SVG rendering", () => {
  test("product SVG carries its colours, size and nothing active", () => {
    for (const family of IMAGE_FAMILIES) {
      const svg = renderProductSvg({ family, colors: ["#1b2a4a", "#f0ece0"], size: "l" });
      expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
      expect(svg).toContain(`width="${IMAGE_SIZE_PX.l}"`);
      expect(svg).toContain('fill="#1b2a4a"');
      expect(svg).toContain('fill="#f0ece0"');
      expect(svg).not.toMatch(/<script|javascript:|on[a-z]+=|<foreignObject|href=/i);
    }
  });

  test("renderers validate their inputs instead of echoing them", () => {
    expect(() => renderProductSvg({ family: "top", colors: ['#000"/><script>'], size: "m" })).toThrow();
    expect(() => renderProductSvg({ family: "top<x>" as never, colors: ["#000000"], size: "m" })).toThrow();
    expect(() => renderProductSvg({ family: "top", colors: ["#000000"], size: "xl" as never })).toThrow();
    expect(() => renderProductSvg({ family: "top", colors: [], size: "m" })).toThrow();
    expect(() => renderSwatchSvg("red")).toThrow();
  });

  test("swatch renders one segment per colour", () => {
    expect(renderSwatchSvg("#c62828")).toContain('fill="#c62828"');
    const two = renderSwatchSvg(["#111111", "#8a8a8a"]);
    expect(two).toContain('fill="#111111"');
    expect(two).toContain('fill="#8a8a8a"');
  });

  test("renderImage renders what parseImagePath returns", () => {
    const parsed = parseImagePath("/images/products/shoe/c62828.svg", "?size=s")!;
    expect(renderImage(parsed)).toBe(renderProductSvg({ family: "shoe", colors: ["#c62828"], size: "s" }));
  });
});

describe("colours", () => {
  test("all 47 styles.csv base colours except NA have a hex", () => {
    const styles = [
      "Black",
      "White",
      "Blue",
      "Brown",
      "Grey",
      "Red",
      "Green",
      "Pink",
      "Navy Blue",
      "Purple",
      "Silver",
      "Yellow",
      "Beige",
      "Gold",
      "Maroon",
      "Orange",
      "Olive",
      "Cream",
      "Steel",
      "Charcoal",
      "Peach",
      "Off White",
      "Skin",
      "Lavender",
      "Grey Melange",
      "Khaki",
      "Magenta",
      "Teal",
      "Tan",
      "Mustard",
      "Bronze",
      "Copper",
      "Turquoise Blue",
      "Rust",
      "Burgundy",
      "Metallic",
      "Coffee Brown",
      "Mauve",
      "Rose",
      "Nude",
      "Sea Green",
      "Mushroom Brown",
      "Taupe",
      "Lime Green",
      "Fluorescent Green",
    ];
    for (const name of styles) expect(colorHex(name)).toMatch(/^#[0-9a-f]{6}$/);
    expect(colorHexes("Multi")).toHaveLength(3);
    expect(colorHex("NA")).toBeUndefined();
  });

  test("Myntra spellings map to the same colours", () => {
    expect(colorHex(" Navy")).toBe(colorHex("Navy Blue"));
    expect(colorHex("Gold-Toned")).toBe(colorHex("Gold"));
    expect(colorHex("Off-White")).toBe(colorHex("Off White"));
    expect(colorHex("Olive Green")).toBe(colorHex("Olive"));
    expect(colorHex("Platinum")).toMatch(/^#/);
    expect(colorHex("Matte")).toBeUndefined();
  });

  test("multi-colour labels give several colours", () => {
    expect(colorHexes("Black & Grey")).toEqual([colorHex("Black")!, colorHex("Grey")!]);
    expect(findColorPhrase("Brown & Off-White Slim Fit Printed Casual Shirt", { anchored: true })).toMatchObject({
      label: "Brown & Off-White",
      colors: ["Brown", "Off White"],
    });
    expect(findColorPhrase("Red, Yellow, Blue")?.colors).toEqual(["Red", "Yellow", "Blue"]);
    expect(findColorPhrase("Black/White")?.colors).toEqual(["Black", "White"]);
    expect(findColorPhrase("Slim Fit Printed Shirt", { anchored: true })).toBeNull();
  });

  test("colour table hexes are unique per canonical name and valid", () => {
    const table = colorTable();
    expect(table.length).toBeGreaterThanOrEqual(47);
    for (const { hex } of table) expect(hex).toMatch(/^#[0-9a-f]{6}$/);
  });
});
