import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { FIELD_END, indexedText } from "../src/engine/sqlite/field-tokens.ts";
import { tokenPairs } from "../src/text/normalize.ts";
import { product } from "./support/fixtures.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

/*
 * The tokenizer is one linear pass. Its tokens must stay exactly those of the regular expressions it replaced
 * (both engines, their conformance suite and every search test depend on them), so the old definition is kept
 * here as the oracle, run on texts short enough for its quadratic backtracking.
 */

const SPLIT = /[^\p{L}\p{N}]+/u;
const COMPOUND = /[\p{L}\p{N}]+(?:[-'’/.][\p{L}\p{N}]+)+/gu;
const IRREGULAR = new Map(
  Object.entries({
    women: "woman",
    men: "man",
    children: "child",
    feet: "foot",
    knives: "knife",
    scarves: "scarf",
    wolves: "wolf",
    leaves: "leaf",
    halves: "half",
    shelves: "shelf",
  }),
);

function oracleFoldPlural(word: string): string {
  const irregular = IRREGULAR.get(word);
  if (irregular) return irregular;
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith("ies") && word.length > 4) return word.slice(0, -3) + "y";
  if (/(ches|shes|sses|xes|zes)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("ss") || word.endsWith("us")) return word;
  if (word.endsWith("s")) return word.slice(0, -1);
  return word;
}

function oracle(text: string): [string, string][] {
  const folded = text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase();
  const out: [string, string][] = [];
  for (const word of folded.split(SPLIT)) if (word) out.push([oracleFoldPlural(word), word]);
  for (const compound of folded.match(COMPOUND) ?? []) {
    const joined = compound.replace(/[-'’/.]/g, "");
    out.push([oracleFoldPlural(joined), joined]);
  }
  return out;
}

const expectSameAsOracle = (text: string) => expect({ text, tokens: tokenPairs(text) }).toEqual({ text, tokens: oracle(text) });

describe("tokenPairs gives the tokens of the regular expressions it replaced", () => {
  test("ordinary catalog text", () => {
    for (const text of [
      "Men's Slim-Fit T-Shirt, 100% cotton",
      "Roadster Women Navy Blue & White Striped Round-Neck T-shirt",
      "Levi's 511™ jeans / denim — size 32/34",
      "U.S. Polo Assn. Kids' shoes; rock'n'roll",
      "Crème brûlée déjà-vu Ærø ﬁne ① ½",
      "a-b--c-d e/f. g.h. -i- j'",
      "x.y.z",
      "1.5-inch 3/4 sleeves",
      "",
      "中文-字符 𝐁𝐨𝐥𝐝-𝐭𝐞𝐱𝐭 𠀀-𠀁 emoji👕-shirt",
      "dresses knives women's CHILDREN feet boxes flies kisses buses 2pcs xes",
    ]) {
      expectSameAsOracle(text);
    }
  });

  test("random texts over letters, digits, joiners, separators, marks and astral characters", () => {
    const alphabet = ["a", "b", "S", "é", "ß", "7", "-", "'", "’", "/", ".", " ", ",", "\n", "\u0301", "𝐀", "😀", "\ud800", "ﬁ", "İ"];
    let seed = 12345;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 2000; i++) {
      const length = Math.floor(random() * 24);
      let text = "";
      for (let j = 0; j < length; j++) text += alphabet[Math.floor(random() * alphabet.length)];
      expectSameAsOracle(text);
    }
  });

  test("a compound yields its parts, then its joined form, after all the words", () => {
    expect(tokenPairs("t-shirt dresses")).toEqual([
      ["t", "t"],
      ["shirt", "shirt"],
      ["dress", "dresses"],
      ["tshirt", "tshirt"],
    ]);
  });

  test("words named like Object.prototype members are words", () => {
    expect(tokenPairs("Lego constructor set")).toEqual([
      ["lego", "lego"],
      ["constructor", "constructor"],
      ["set", "set"],
    ]);
  });
});

describe("tokenizing is linear in the text's length", () => {
  // These take about a millisecond; the regular expression took 8.5 s on the first of them, so a time-out far above
  // any loaded machine's slowness still catches its return.
  const HANG_MS = 5_000;
  const cases: [string, string][] = [
    ["one run of 50,000 letters", "a".repeat(50_000)],
    ["25,000 letters chained by hyphens", "a-".repeat(25_000).slice(0, 50_000)],
    ["runs chained by every joiner", "ab.cd/ef'gh’ij-".repeat(3_334).slice(0, 50_000)],
    ["joiners doubled between runs", "abc--".repeat(10_000)],
    ["digits and dots", "1.".repeat(25_000)],
  ];
  for (const [name, text] of cases) {
    test(
      name,
      () => {
        expect(tokenPairs(text).length).toBeGreaterThan(0);
      },
      HANG_MS,
    );
  }
});

describe("a product with a 50,000-character description", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  for (const [name, description] of [
    ["one run of letters", "a".repeat(50_000)],
    ["letters chained by hyphens", "a-".repeat(25_000)],
  ] as const) {
    test(`is indexed and searchable: ${name}`, async () => {
      const id = `long-${name.length}`;
      const res = await server.call("admin", "POST", "/1.9/products", product(id, { name: `Longread ${name}`, description }));
      expect(res.status).toBe(202);
      const { taskId } = (await res.json()) as { taskId: string };
      expect(await server.waitForTask(taskId, 10_000)).toMatchObject({ status: "complete" });
      const search = await server.call("search", "GET", `/1.9/search?query=${encodeURIComponent(`longread ${name}`)}`);
      const body = (await search.json()) as { products: { productId: string }[] };
      expect(body.products.map((p) => p.productId)).toContain(id);
    });
  }
});

test("indexedText numbers each field's oracle tokens by first appearance, FIELD_END after every field, empty ones too", () => {
  const text = {
    name: "T-Shirts for Men's Running",
    brand: "",
    categories: ["Apparel", "Topwear", "Tshirts"],
    features: ["Slim fit", "100% cotton"],
    tags: [],
    description: "Crew-neck t-shirt; running shirts for men.",
    identifiers: ["p-1"],
  };
  const fields = [[text.name], [text.brand], text.categories, text.features, text.tags, [text.description]].map((parts) =>
    oracle(parts.join("\n")),
  );
  const distinct: string[] = [];
  const surfaces: string[] = [];
  const sequence: number[] = [];
  for (const pairs of fields) {
    for (const [token, surface] of pairs) {
      if (!distinct.includes(token)) {
        distinct.push(token);
        if (surface !== token) surfaces.push(String(distinct.length - 1), surface);
      }
      sequence.push(distinct.indexOf(token));
    }
    sequence.push(FIELD_END);
  }
  const indexed = indexedText(text);
  expect(indexed.distinct).toEqual(distinct);
  expect([...indexed.sequence]).toEqual(sequence);
  expect(indexed.surfaces).toBe(surfaces.join(" "));
});
