import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { parseImagePath, renderImage, productImageUrl } from "../../demo-store/src/catalog/images.ts";
import { demoProducts } from "./support/demo-products.ts";
import { product } from "./support/fixtures.ts";
import { getJson, indexProducts, search } from "./support/search-client.ts";
import { makeTestCerts, type TestCerts } from "./support/test-certs.ts";
import { startTestServer, tempDir, type TestServer } from "./support/test-server.ts";
import { startTestReceiver, until, type TestReceiver } from "./support/webhook-support.ts";

/*
 * Enrichment end to end: products indexed through the API are analysed in stages (text, then image) by the
 * real server, and each stage's result reaches a subscribed HTTPS receiver (the reference receiver, with a
 * certificate made at test time) as a signed call. Images come from a local server rendering the demo store's
 * generated images, so the colours found can be checked against the colours they were drawn with.
 */

let certs: TestCerts;
let s: TestServer;
let receiver: TestReceiver;
let images: ReturnType<typeof Bun.serve>;
let imageRequests = 0;
const outDir = tempDir("sfs-enrichment-");
const outFile = join(outDir, "calls.jsonl");
let secret = "";

/** A call as the reference receiver records it: only after its signature checked out. */
interface Call {
  deliveryId: string;
  webhookId: string;
  storeId: string;
  topic: string;
  body: {
    id: string;
    productId: string;
    category: string;
    productVersion: number;
    attributes: Record<
      string,
      {
        displayName: Record<string, string>;
        attributesValues: Record<string, { displayName: Record<string, string>; synonyms: unknown[]; trending: boolean }>[];
      }
    >;
    generatedContent: { fieldName: string; values: Record<string, string> }[];
  };
}

/** The calls the receiver accepted, from its JSON-lines file. */
const received = (): Call[] => {
  try {
    return readFileSync(outFile, "utf8")
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  } catch {
    return [];
  }
};

beforeAll(async () => {
  certs = makeTestCerts();
  images = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      imageRequests++;
      const parsed = parseImagePath(new URL(req.url).pathname);
      if (!parsed) return new Response("no", { status: 404 });
      return new Response(renderImage(parsed), { headers: { "content-type": "image/svg+xml" } });
    },
  });
  s = await startTestServer({
    WEBHOOK_CA_FILE: certs.caFile,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
    ENRICHMENT_ALLOW_PRIVATE_NETWORKS: "true",
  });
  expect((await s.call("admin", "PATCH", "/1.9/settings", { locales: ["en", "de", "fr", "es"] })).status).toBe(200);
  receiver = await startTestReceiver(certs, { secret: () => secret, outFile });
  const res = await s.call("admin", "POST", "/1.9/webhooks", { url: receiver.url, topic: "tags" });
  expect(res.status).toBe(201);
  secret = ((await res.json()) as { secret: string }).secret;
});

afterAll(async () => {
  await s?.stop();
  await receiver?.close();
  images?.stop(true);
  rmSync(certs.dir, { recursive: true, force: true });
  rmSync(outDir, { recursive: true, force: true });
});

const imageBase = () => `http://127.0.0.1:${images.port}`;

describe("a new product", () => {
  test("causes a text-stage call and then an image-stage call, both signed, with attributes, colours and content per locale", async () => {
    const shirt = product("enriched-1", {
      name: "Navy blue slim fit cotton shirt with long sleeves",
      description: "A formal shirt in pure cotton with a spread collar.",
      categories: ["Apparel", "Topwear", "Shirts"],
      variations: [{ id: "enriched-1-navy", name: "Navy Blue" }],
      media: [{ url: productImageUrl(imageBase(), "top", ["#1f2a44"], "m"), variationId: "enriched-1-navy" }],
    });
    await indexProducts(s, [shirt]);
    const calls = await until(
      () => {
        const mine = received().filter((c) => c.body.productId === "enriched-1");
        return mine.length >= 2 ? mine : null;
      },
      30_000,
      "two stage calls",
    );
    // Text first: nothing failed, so the calls arrive in the order the stages committed.
    const [text, image] = calls as [Call, Call];
    expect(new Set(calls.map((c) => c.deliveryId)).size).toBe(2);
    // Every call answered was accepted (the receiver checks the signature); one still in flight has no status yet.
    expect(receiver.calls.filter((c) => c.status !== null && c.status !== 200)).toEqual([]);
    for (const c of calls) {
      expect(c).toMatchObject({ storeId: s.storeId, topic: "tags" });
      expect(c.body).toMatchObject({ productId: "enriched-1", productVersion: 1, category: "Apparel > Topwear > Shirts" });
    }
    expect(text.body.attributes.material!.attributesValues.map((v) => Object.keys(v)[0])).toContain("cotton");
    expect(text.body.attributes.material!.displayName).toEqual({
      en: expect.any(String),
      de: expect.any(String),
      fr: expect.any(String),
      es: expect.any(String),
    });
    const title = text.body.generatedContent.find((g) => g.fieldName === "title")!;
    expect(Object.keys(title.values).sort()).toEqual(["de", "en", "es", "fr"]);
    expect(title.values.en).toContain("Roadster");
    // The image stage adds what the image shows; the Search product carries the colour composition.
    expect(image.body.attributes.colour).toBeDefined();
    const found = await until(
      async () => {
        const hit = (await search(s, { query: "navy shirt" })).products.find((p) => p.productId === "enriched-1");
        const values = (hit?.colors as Record<string, { values: { hex: string; ratio: number }[] }> | undefined)?.["enriched-1-navy"]
          ?.values;
        return values?.length ? values : null;
      },
      30_000,
      "colour values in search",
    );
    expect(found[0]!.hex).toBe("#1f2a44");
    expect(found[0]!.ratio).toBeGreaterThan(0.8);
  });

  test("an unchanged product sent again is not analysed again", async () => {
    const before = received().length;
    const requests = imageRequests;
    await indexProducts(s, [
      product("enriched-1", {
        name: "Navy blue slim fit cotton shirt with long sleeves",
        description: "A formal shirt in pure cotton with a spread collar.",
        categories: ["Apparel", "Topwear", "Shirts"],
        variations: [{ id: "enriched-1-navy", name: "Navy Blue" }],
        media: [{ url: productImageUrl(imageBase(), "top", ["#1f2a44"], "m"), variationId: "enriched-1-navy" }],
      }),
    ]);
    await Bun.sleep(1_500);
    expect(received().length).toBe(before);
    expect(imageRequests).toBe(requests);
  });
});

describe("image fetching is a security boundary", () => {
  test("an image on a private address is never fetched by a server that does not allow it", async () => {
    const guarded = await startTestServer({ WEBHOOK_CA_FILE: certs.caFile, WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true" });
    try {
      const requests = imageRequests;
      await indexProducts(guarded, [product("private-image", { media: [{ url: productImageUrl(imageBase(), "top", ["#aa0000"], "m") }] })]);
      await Bun.sleep(1_500);
      expect(imageRequests).toBe(requests);
    } finally {
      await guarded.stop();
    }
  });
});

describe("what enrichment finds feeds search", () => {
  test("a word of the shopper's locale finds the product; another locale's word does not, and neither does a word enrichment read", async () => {
    await indexProducts(s, [
      product("enriched-sweater", {
        name: "Grey wool sweater",
        description: "A warm knit from merino wool.",
        categories: ["Apparel", "Topwear", "Sweaters"],
        variations: [{ id: "enriched-sweater-grey", name: "Grey" }],
      }),
    ]);
    const found = async (query: string, language?: string) =>
      (await search(s, { query, ...(language ? { language } : {}) })).products.some((p) => p.productId === "enriched-sweater");
    // Neither word is in the product's text: "jumper" is English for a sweater, "suéter" Spanish.
    expect(await found("jumper")).toBe(true);
    expect(await found("suéter", "es")).toBe(true);
    expect(await found("suéter")).toBe(false);
    // Once enrichment has run, its words in other locales still find nothing: German "grau" (grey) for an English
    // shopper, and a colour's German synonym that starts like a type ("jeansblau" is no prefix match of "jeans").
    await until(
      async () => (received().some((c) => c.body.productId === "enriched-sweater") ? true : null),
      30_000,
      "the text stage's webhook",
    );
    await until(async () => (await found("grau", "de")) || null, 30_000, "the text stage's words in search");
    expect(await found("grau")).toBe(false);
  });

  test("a product whose variations name no colour gets the colours its image shows as colour facet values", async () => {
    await indexProducts(s, [
      product("enriched-multi", {
        name: "Printed canvas tote bag",
        description: "A roomy tote for every day.",
        categories: ["Accessories", "Bags", "Handbags"],
        variations: [{ id: "enriched-multi-1", name: "Multi" }],
        media: [{ url: productImageUrl(imageBase(), "bag", ["#c0392b"], "m"), variationId: "enriched-multi-1" }],
      }),
    ]);
    const colours = await until(
      async () => {
        const body = await search(s, { query: "tote", returnFacets: true });
        const values = body.facets.find((f) => f.key === "color")?.values.map((v) => v.key) ?? [];
        return values.includes("Red") ? values : null;
      },
      30_000,
      "Red among the tote's colour facet values",
    );
    expect(colours).toContain("Multi");
    const filtered = await search(s, { query: "tote", facets: "color:Red" });
    expect(filtered.products.map((p) => p.productId)).toEqual(["enriched-multi"]);
    // A product whose variations do name a colour keeps the catalog's names alone: "Navy Blue", not also "Navy".
    const shirt = await search(s, { query: "navy shirt", returnFacets: true });
    expect(shirt.facets.find((f) => f.key === "color")?.values.map((v) => v.key)).toEqual(["Navy Blue"]);
  });
});

describe("results do not drift while enrichment runs", () => {
  test("a query naming a product type finds the same products before the stages ran and after every one did", async () => {
    // Real demo products whose images this test's image server draws (their colours as the catalog states them).
    const catalog = demoProducts(300).map((p) => ({
      ...p,
      id: `drift-${p.id}`,
      media: (p.media ?? []).map((m) => ({ ...m, url: imageBase() + new URL(m.url).pathname })),
    }));
    const queries = ["jeans", "shirts", "kurtas", "watches", "t-shirts", "casual shoes", "handbags", "tops"];
    const totals = async () =>
      Object.fromEntries(
        await Promise.all(queries.map(async (q) => [q, (await search(s, { query: q, pageSize: 1 })).totalProductCount] as const)),
      );
    const calls = received().length;
    await indexProducts(s, catalog);
    const before = await totals();
    expect(Object.values(before).reduce((a, b) => a + b, 0)).toBeGreaterThan(30);
    // Every product's two stages (text, then image) have been delivered: enrichment has finished with them.
    const stages = catalog.length + catalog.filter((p) => p.media?.length).length;
    await until(() => (received().length - calls >= stages ? true : null), 90_000, "every stage of the products");
    await Bun.sleep(1_000);
    expect(await totals()).toEqual(before);
  }, 120_000);
});

describe("what image analysis measures feeds similar products", () => {
  test("where variation names say no colour, the images' colours decide which product is closest", async () => {
    // Names differ by one word each, equally rare: the same name would make them variants of one design.
    const tote = (id: string, hex: string) =>
      product(id, {
        name: `Canvas shopper bag ${id.slice(-4)}`,
        description: "A roomy shopper.",
        categories: ["Accessories", "Bags", "Shoppers"],
        variations: [{ id: `${id}-v`, name: "Multi" }],
        media: [{ url: productImageUrl(imageBase(), "bag", [hex], "m"), variationId: `${id}-v` }],
      });
    // Without colours the two candidates tie; the blue one sorts first by id.
    await indexProducts(s, [tote("shopper-source", "#c0392b"), tote("shopper-a-blue", "#1f4fc0"), tote("shopper-z-red", "#b83227")]);
    const order = await until(
      async () => {
        const { body } = await getJson<{ explain?: { productId: string; contributions: Record<string, number> }[] }>(
          s,
          "/similarity",
          { productId: "shopper-source", explain: "true" },
          "admin",
        );
        const red = body.explain?.find((e) => e.productId === "shopper-z-red");
        return red && red.contributions.colour! > 0 ? body.explain!.map((e) => e.productId) : null;
      },
      30_000,
      "the images' colours in the similarity scores",
    );
    expect(order.slice(0, 2)).toEqual(["shopper-z-red", "shopper-a-blue"]);
  }, 90_000);
});
