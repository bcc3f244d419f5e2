import { expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { documentPreparer } from "../src/engine/document-preparers.ts";
import type { EngineKind } from "../src/engine/types.ts";
import { canonicalJson, contentHash } from "../src/modules/catalog/content-hash.ts";
import { toEngineDocument, type RankingContext } from "../src/modules/catalog/engine-document.ts";
import { decodePrepared, encodePrepared } from "../src/modules/indexing/prepared-batch.ts";
import { textOf } from "../src/utf8-text.ts";
import { demoProducts } from "./support/demo-products.ts";

/*
 * What the indexing thread sends is buffers; what the main thread decodes must be exactly what preparing the
 * products on the main thread would give, for real catalog text (hyphens, apostrophes, non-Latin letters). What an
 * engine's own preparer makes of the documents is held to what its upsert makes by engine/conformance.ts.
 */

const KINDS: EngineKind[] = ["sqlite", "typesense"];

test.each(KINDS)("prepared products decode to the catalog JSON, hashes and engine documents made in place (%s)", (kind) => {
  const products = demoProducts(400);
  products[0]!.name = "T-shirt d’été / Café-crème 100% coton";
  const context = (id: string): RankingContext => ({ ratingPrior: { mean: 0.8, weight: 3 }, purchases: id === products[1]!.id ? 7 : 0 });
  const preparer = documentPreparer(kind);
  const decoded = decodePrepared(encodePrepared(products, context, preparer), preparer);
  const engineDocuments = products.map((product) => toEngineDocument(product, 0, context(product.id)));
  const documents = preparer.decode(preparer.encode(engineDocuments, products.length));
  expect(decoded).toHaveLength(products.length);
  decoded.forEach((prepared, i) => {
    const product = products[i]!;
    const doc = canonicalJson(product);
    expect(prepared.id).toBe(product.id);
    expect(textOf(prepared.doc)).toBe(doc);
    expect(prepared.hash).toBe(contentHash(doc));
    expect(prepared.engine).toEqual(documents[i]!);
  });
});

test("the engine documents sent are the products' with their ranking inputs, at version 0 until a batch gives one", () => {
  const products = demoProducts(3);
  const context = (id: string): RankingContext => ({ ratingPrior: { mean: 0.8, weight: 3 }, purchases: id === products[1]!.id ? 7 : 0 });
  // Typesense's preparer hands the documents over as they are.
  const preparer = documentPreparer("typesense");
  const decoded = decodePrepared(encodePrepared(products, context, preparer), preparer);
  expect(decoded.map((p) => p.engine)).toEqual(products.map((product) => toEngineDocument(product, 0, context(product.id))));
  expect(decoded.map((p) => p.engine.version)).toEqual([0, 0, 0]);
});

test("a content hash is the SHA-256 of the canonical JSON, base64url: stored hashes stay comparable across versions", () => {
  const doc = canonicalJson({ name: "Lantern", id: "p-1", skus: [{ size: "M", id: "s-1" }] });
  expect(doc).toBe('{"id":"p-1","name":"Lantern","skus":[{"id":"s-1","size":"M"}]}');
  expect(contentHash(doc)).toBe(createHash("sha256").update(doc).digest("base64url"));
  expect(contentHash('{"a":1}')).toBe("AVq9f1zFei3ZS3WQ8ErYCEJzkF7jPsXOvq5iJ2qX-GI");
});

test("texts longer than the room first made for them (wide characters, long descriptions) arrive whole", () => {
  const [small, large] = demoProducts(2);
  // 50,000 characters of up to three UTF-8 bytes each: past the initial room of two products several times over.
  large!.description = "Écharpe en laine – 羊毛围巾 ".repeat(2_500).slice(0, 50_000);
  const context = (): RankingContext => ({ ratingPrior: { mean: 0.8, weight: 3 }, purchases: 0 });
  const preparer = documentPreparer("typesense");
  const decoded = decodePrepared(encodePrepared([large!, small!], context, preparer), preparer);
  expect(decoded.map((p) => textOf(p.doc))).toEqual([canonicalJson(large), canonicalJson(small)]);
});
