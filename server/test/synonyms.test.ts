import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { product } from "./support/fixtures.ts";
import { deleteProduct, getJson, indexProducts, search } from "./support/search-client.ts";
import { startTestServer, type KeyKind, type TestServer } from "./support/test-server.ts";
import { bothEngines } from "./support/both-engines.ts";

/*
 * Synonym sets through the real server: CRUD and its limits over /synonyms, imports and exports in the three
 * formats, and their effect on GET /search on the embedded engine and on the Typesense stand-in. The words are
 * ones the enrichment vocabulary does not know, so only the store's synonyms can make them meet.
 */

const ENGINES = bothEngines();

const PRODUCTS = [
  // "anorak" only in the description: an exact match that scores low on its own.
  product("field-jacket", { name: "Field jacket", categories: ["Outdoor", "Coats"], description: "A light anorak for long walks" }),
  // "cagoule" twice in the name: through the synonym it would score above the field jacket without the rule.
  product("cagoule", { name: "Packable cagoule cagoule", categories: ["Outdoor", "Rainwear"] }),
  product("shell", { name: "Rain shell", categories: ["Outdoor", "Rainwear"] }),
  product("umbrella", { name: "Compact umbrella", categories: ["Accessories", "Umbrellas"] }),
  product("brolly-stand", { name: "Brolly stand", categories: ["Home", "Hallway"] }),
  product("plimsoll", { name: "Canvas plimsoll", categories: ["Footwear", "Plimsolls"] }),
  product("other0", { name: "Other0 beanie", categories: ["Accessories", "Hats"] }),
  product("other59", { name: "Other59 beanie", categories: ["Accessories", "Hats"] }),
];

for (const [engine, engineEnv, stopEngine] of ENGINES)
  describe(engine, () => {
    let s: TestServer;

    beforeAll(async () => {
      s = await startTestServer(await engineEnv());
      await indexProducts(s, PRODUCTS);
    });
    afterAll(async () => {
      await s.stop();
      await stopEngine();
    });

    const ids = async (query: string, params: Record<string, string> = {}) =>
      (await search(s, { query, pageSize: 30, ...params })).products.map((p) => p.productId);
    const put = (id: string, body: unknown, kind: KeyKind = "admin") => s.call(kind, "PUT", `/1.9/synonyms/${id}`, body);
    const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> });
    /** A 400 whose details name `path`. */
    const rejects = async (res: Response, path: string) => {
      const { status, body } = await json(res);
      expect(status).toBe(400);
      expect((body.details as { path: string }[]).map((d) => d.path)).toContain(path);
      expect(String(body.message)).toContain(path);
    };

    test("without synonyms the words do not meet", async () => {
      expect(await ids("anorak")).toEqual(["field-jacket"]);
      expect(await ids("brolly")).toEqual(["brolly-stand"]);
      expect(await ids("gym pumps")).toEqual([]);
    });

    test("CRUD of a multi-way and a one-way set, admin key only", async () => {
      const multi = await json(await put("rainwear", { synonyms: ["anorak", "Cagoule", "rain shell"] }));
      expect(multi.status).toBe(200);
      expect(multi.body).toMatchObject({ id: "rainwear", type: "multiWay", synonyms: ["anorak", "Cagoule", "rain shell"] });
      expect(multi.body.input).toBeUndefined();
      expect(Number.isNaN(Date.parse(String(multi.body.updatedAt)))).toBe(false);

      const oneWay = await json(await put("brolly", { input: "brolly", synonyms: ["umbrella"] }));
      expect(oneWay).toMatchObject({ status: 200, body: { id: "brolly", type: "oneWay", input: "brolly", synonyms: ["umbrella"] } });
      expect((await json(await put("pumps", { input: "gym pumps", synonyms: ["plimsoll"] }))).status).toBe(200);

      expect(await getJson(s, "/synonyms/brolly", {}, "admin")).toMatchObject({
        status: 200,
        body: { id: "brolly", type: "oneWay", input: "brolly" },
      });
      const list = await getJson<{ synonyms: { id: string }[]; total: number }>(s, "/synonyms", {}, "admin");
      expect(list.status).toBe(200);
      expect(list.body.synonyms.map((x) => x.id)).toEqual(["brolly", "pumps", "rainwear"]);
      const page = await getJson<{ synonyms: { id: string }[] }>(s, "/synonyms", { from: 1, limit: 1 }, "admin");
      expect(page.body.synonyms.map((x) => x.id)).toEqual(["pumps"]);

      // Replaced in place; a deleted set is gone, and deleting it again is a 404.
      expect((await json(await put("temp", { synonyms: ["a1", "b1"] }))).status).toBe(200);
      expect((await json(await put("temp", { input: "a1", synonyms: ["c1"] }))).body).toMatchObject({ type: "oneWay", synonyms: ["c1"] });
      expect(await json(await s.call("admin", "DELETE", "/1.9/synonyms/temp"))).toEqual({
        status: 200,
        body: { id: "temp", deleted: true },
      });
      expect((await getJson(s, "/synonyms/temp", {}, "admin")).status).toBe(404);
      expect((await s.call("admin", "DELETE", "/1.9/synonyms/temp")).status).toBe(404);

      for (const kind of ["search", "analytics"] as const) {
        expect((await getJson(s, "/synonyms", {}, kind)).status).toBe(401);
        expect((await getJson(s, "/synonyms/brolly", {}, kind)).status).toBe(401);
        expect((await put("nope", { synonyms: ["x1", "y1"] }, kind)).status).toBe(401);
        expect((await s.call(kind, "DELETE", "/1.9/synonyms/brolly")).status).toBe(401);
        expect((await s.call(kind, "GET", "/1.9/synonyms/export")).status).toBe(401);
        expect((await s.call(kind, "POST", "/1.9/synonyms/import", [])).status).toBe(401);
      }
      expect((await getJson(s, "/synonyms/nope", {}, "admin")).status).toBe(404);
    });

    test("bad input is a 400 naming the field", async () => {
      await rejects(await put("has space", { synonyms: ["a1", "b1"] }), "path.id");
      await rejects(await put("x".repeat(65), { synonyms: ["a1", "b1"] }), "path.id");
      await rejects(await put("ok", { synonyms: ["a1", "b1", "c".repeat(101)] }), "body.synonyms[2]");
      await rejects(await put("ok", { synonyms: Array.from({ length: 21 }, (_, i) => `w${i}`) }), "body.synonyms");
      await rejects(await put("ok", { synonyms: ["alone"] }), "body.synonyms");
      await rejects(await put("ok", { input: "tee" }), "body.synonyms");
      await rejects(await put("ok", { input: 7, synonyms: ["t-shirt"] }), "body.input");
      await rejects(await put("ok", { synonyms: ["a1", "---"] }), "body.synonyms[1]");
      await rejects(await put("ok", { synonyms: ["a1", "b1"], colour: "red" }), "body.colour");
      await rejects(await put("ok", ["a1", "b1"]), "body");
      const badJson = await s.call("admin", "PUT", "/1.9/synonyms/ok", '{"synonyms": [');
      expect(badJson.status).toBe(400);
      expect(((await badJson.json()) as { code: string }).code).toBe("invalid_json");
      await rejects(await s.call("admin", "GET", "/1.9/synonyms/export?format=solr"), "query.format");
      await rejects(await s.call("admin", "GET", "/1.9/synonyms?limit=0"), "query.limit");
      expect((await getJson(s, "/synonyms/ok", {}, "admin")).status).toBe(404);
    });

    test("multi-way: any word finds the others, a phrase too", async () => {
      expect((await ids("anorak")).sort()).toEqual(["cagoule", "field-jacket", "shell"]);
      expect((await ids("cagoule")).sort()).toEqual(["cagoule", "field-jacket", "shell"]);
      expect((await ids("rain shell")).sort()).toEqual(["cagoule", "field-jacket", "shell"]);
      // A synonym's word beside a plain one: both must match.
      expect(await ids("packable anorak")).toEqual(["cagoule"]);
    });

    test("a set whose phrases fold to the same words (Plimsolls, plimsoll) is saved, replaced and deleted like any other", async () => {
      for (let round = 0; round < 2; round++) {
        expect((await put("folded", { synonyms: ["Plimsolls", "plimsoll", "gym shoe"] })).status).toBe(200);
        expect(await ids("gym shoe")).toEqual(["plimsoll"]);
        expect((await put("folded", { synonyms: ["plimsoll", "PLIMSOLLS", "sneaker"] })).status).toBe(200);
        expect(await ids("sneaker")).toEqual(["plimsoll"]);
        expect((await s.call("admin", "DELETE", "/1.9/synonyms/folded")).status).toBe(200);
        expect(await ids("sneaker")).toEqual([]);
      }
    });

    test("one-way: the input finds the synonyms, not the reverse; a multi-word input", async () => {
      expect((await ids("brolly")).sort()).toEqual(["brolly-stand", "umbrella"]);
      expect(await ids("umbrella")).toEqual(["umbrella"]);
      expect(await ids("gym pumps")).toEqual(["plimsoll"]);
      expect(await ids("plimsoll")).toEqual(["plimsoll"]);
      // A deleted set stops applying at once, and applies again when put back.
      expect((await s.call("admin", "DELETE", "/1.9/synonyms/pumps")).status).toBe(200);
      expect(await ids("gym pumps")).toEqual([]);
      expect((await put("pumps", { input: "gym pumps", synonyms: ["plimsoll"] })).status).toBe(200);
      expect(await ids("gym pumps")).toEqual(["plimsoll"]);
    });

    test("a synonym's products rank as an exact match of the typed word", async () => {
      // The cagoule holds "cagoule" twice in its name, the field jacket "anorak" once in its description: searched
      // as "anorak", the cagoule's name match counts as much as if it said "anorak" there.
      expect((await ids("anorak")).sort()).toEqual(["cagoule", "field-jacket", "shell"]);
      // Typesense cannot score a word that has alternatives (it leaves q for filter_by): there the three tie on it
      // and the next sorts decide, which the embedded engine refines by field.
      if (engine === "embedded engine") expect((await ids("anorak"))[0]).toBe("cagoule");
      expect((await ids("cagoule"))[0]).toBe("cagoule");
      // Under an explicit order the shopper's order stands (all three cost the same: the row order decides).
      expect((await search(s, { query: "anorak", sortBy: "pricea", pageSize: 30 })).totalProductCount).toBe(3);
    });

    test("a synonym beats a typo: page 1 of the input is the synonym's products, with no correction and no 'did you mean'", async () => {
      await indexProducts(s, [
        product("funny-tee", { name: "Funny slogan T-shirt", categories: ["Apparel", "Tshirts"] }),
        product("bunny-tee", { name: "Bunny print T-shirt", categories: ["Apparel", "Tshirts"] }),
        product("aviators", { name: "Aviator sunglasses", categories: ["Accessories", "Sunglasses"] }),
        product("wayfarers", { name: "Wayfarer sunglasses", categories: ["Accessories", "Sunglasses"] }),
      ]);
      try {
        // Without the set, "sunnies" is read as its closest common look-alike.
        const before = await search(s, { query: "sunnies", pageSize: 10 });
        expect(before.typedQuery).toBe("sunnies");
        expect((await put("sunnies", { input: "sunnies", synonyms: ["sunglasses"] })).status).toBe(200);
        const after = await search(s, { query: "sunnies", pageSize: 10 });
        expect(after.products.map((p) => p.productId).sort()).toEqual(["aviators", "wayfarers"]);
        expect(after).toMatchObject({ query: "sunnies", fallback: false, spellSuggestions: [] });
        expect(after.typedQuery).toBeUndefined();
        // Every word of a multi-way set finds the set's products on its first page.
        expect((await put("shades", { synonyms: ["shades", "sunglasses", "sunnies"] })).status).toBe(200);
        for (const word of ["shades", "sunnies", "sunglasses"]) expect((await ids(word)).sort()).toEqual(["aviators", "wayfarers"]);
      } finally {
        for (const id of ["sunnies", "shades"]) await s.call("admin", "DELETE", `/1.9/synonyms/${id}`);
        for (const id of ["funny-tee", "bunny-tee", "aviators", "wayfarers"]) await deleteProduct(s, id);
      }
    });

    test("explain names the set that matched", async () => {
      const { status, body } = await getJson<{ explain: { synonyms: { id: string; matched: string }[] } }>(
        s,
        "/search",
        { query: "Packable ANORAK", explain: true },
        "admin",
      );
      expect(status).toBe(200);
      expect(body.explain.synonyms).toEqual([{ id: "rainwear", matched: "anorak" }]);
      const plain = await getJson<{ explain: { synonyms: unknown[] } }>(s, "/search", { query: "umbrella", explain: true }, "admin");
      expect(plain.body.explain.synonyms).toEqual([]);
      // Two sets holding one word: both are named, and both sets' words are found.
      expect((await put("coats", { synonyms: ["anorak", "brolly"] })).status).toBe(200);
      const both = await getJson<{ explain: { synonyms: unknown[] } }>(s, "/search", { query: "anorak", explain: true }, "admin");
      expect(both.body.explain.synonyms).toEqual([
        { id: "rainwear", matched: "anorak" },
        { id: "coats", matched: "anorak" },
      ]);
      expect((await ids("anorak")).sort()).toEqual(["brolly-stand", "cagoule", "field-jacket", "shell"]);
      expect((await s.call("admin", "DELETE", "/1.9/synonyms/coats")).status).toBe(200);
      expect((await ids("anorak")).sort()).toEqual(["cagoule", "field-jacket", "shell"]);
    });

    test("a word in many sets: the search answers, with a bounded number of alternatives", async () => {
      const many = Array.from({ length: 60 }, (_, i) => ({
        id: `many${i}`,
        synonyms: ["anorak", `filler${i} word`, `other${i}`, "umbrella"],
      }));
      expect((await json(await s.call("admin", "POST", "/1.9/synonyms/import", many))).body).toEqual({
        imported: 60,
        errors: [],
        errorCount: 0,
      });
      const { status, body } = await getJson<{ products: { productId: string }[] }>(s, "/search", { query: "anorak", pageSize: 30 });
      expect(status).toBe(200);
      // The first sets' words are among the alternatives (the umbrella, other0); the 60th set's are past the bound.
      const found = body.products.map((p) => p.productId);
      expect(found).toContain("umbrella");
      expect(found).toContain("other0");
      expect(found).not.toContain("other59");
      expect(found).toContain("field-jacket");
      expect((await ids("other59")).sort()).toEqual(["field-jacket", "other59", "umbrella"]);
      for (const set of many) expect((await s.call("admin", "DELETE", `/1.9/synonyms/${set.id}`)).status).toBe(200);
      expect(await ids("anorak")).not.toContain("umbrella");
    });

    test("imports from the three formats: bad items reported by index, good ones imported", async () => {
      const native = await json(
        await s.call("admin", "POST", "/1.9/synonyms/import?format=native", {
          synonyms: [
            { id: "n1", synonyms: ["alpha1", "beta1"] },
            { id: "bad id", synonyms: ["x1", "y1"] },
            { id: "n2", input: "gamma1", synonyms: ["delta1"] },
          ],
        }),
      );
      expect(native.status).toBe(200);
      expect(native.body.imported).toBe(2);
      expect(native.body.errors).toEqual([{ index: 1, id: "bad id", message: expect.stringContaining("body[1].id") }]);

      const algolia = await json(
        await s.call("admin", "POST", "/1.9/synonyms/import?format=algolia", [
          { objectID: "a1", type: "synonym", synonyms: ["eps1", "zeta1"] },
          { objectID: "a2", type: "altCorrection1", word: "eps1", corrections: ["epz1"] },
          { objectID: "a3", type: "oneWaySynonym", input: "eta1", synonyms: ["theta1"] },
          { objectID: "a4", type: "placeholder", placeholder: "<size>", replacements: ["s1"] },
          { objectID: "a5", type: "synonym", synonyms: ["lonely"] },
          "not an object",
        ]),
      );
      expect(algolia.status).toBe(200);
      expect(algolia.body.imported).toBe(2);
      const algoliaErrors = algolia.body.errors as { index: number; id?: string; message: string }[];
      expect(algoliaErrors.map((e) => [e.index, e.id])).toEqual([
        [1, "a2"],
        [3, "a4"],
        [4, "a5"],
        [5, undefined],
      ]);
      expect(algoliaErrors[0]!.message).toContain("altCorrection1");
      expect(algoliaErrors[1]!.message).toContain("placeholder");

      const typesense = await json(
        await s.call("admin", "POST", "/1.9/synonyms/import?format=typesense", [
          { id: "t1", synonyms: ["iota1", "kappa1"] },
          { id: "t2", root: "lambda1", synonyms: ["mu1"] },
          { id: "t3", root: "", synonyms: ["nu1", "xi1"] },
          { synonyms: ["no", "id"] },
        ]),
      );
      expect(typesense.status).toBe(200);
      expect(typesense.body.imported).toBe(3);
      expect((typesense.body.errors as { index: number }[]).map((e) => e.index)).toEqual([3]);

      const get = async (id: string) => (await getJson<Record<string, unknown>>(s, `/synonyms/${id}`, {}, "admin")).body;
      expect(await get("n2")).toMatchObject({ type: "oneWay", input: "gamma1", synonyms: ["delta1"] });
      expect(await get("a1")).toMatchObject({ type: "multiWay", synonyms: ["eps1", "zeta1"] });
      expect(await get("a3")).toMatchObject({ type: "oneWay", input: "eta1", synonyms: ["theta1"] });
      expect(await get("t2")).toMatchObject({ type: "oneWay", input: "lambda1", synonyms: ["mu1"] });
      expect(await get("t3")).toMatchObject({ type: "multiWay", synonyms: ["nu1", "xi1"] });
      expect((await getJson(s, "/synonyms/a2", {}, "admin")).status).toBe(404);

      // An import that is no export at all is a 400.
      await rejects(await s.call("admin", "POST", "/1.9/synonyms/import?format=algolia", { synonyms: [] }), "body");
    });

    test("an export in another format than the one named is refused whole with a 400 naming the format parameter", async () => {
      const algoliaExport = [{ objectID: "fmt1", type: "synonym", synonyms: ["fmtword1", "fmtword2"] }];
      const typesenseExport = [{ id: "fmt2", root: "fmtword3", synonyms: ["fmtword4"] }];
      for (const [path, body, hint] of [
        ["/1.9/synonyms/import", algoliaExport, "format=algolia"],
        ["/1.9/synonyms/import?format=typesense", algoliaExport, "format=algolia"],
        ["/1.9/synonyms/import", typesenseExport, "format=typesense"],
        ["/1.9/synonyms/import?format=algolia", [{ id: "fmt3", synonyms: ["fmtword5", "fmtword6"] }], "format=native"],
      ] as const) {
        const res = await s.call("admin", "POST", path, body);
        expect(res.status).toBe(400);
        const error = (await res.json()) as { message: string; details: { path: string }[] };
        expect(error.message).toContain(hint);
        expect(error.details[0]!.path).toBe("query.format");
      }
      for (const id of ["fmt1", "fmt2", "fmt3"]) expect((await getJson(s, `/synonyms/${id}`, {}, "admin")).status).toBe(404);
      // Named rightly, the same exports import.
      expect((await json(await s.call("admin", "POST", "/1.9/synonyms/import?format=algolia", algoliaExport))).body).toEqual({
        imported: 1,
        errors: [],
        errorCount: 0,
      });
      expect((await json(await s.call("admin", "POST", "/1.9/synonyms/import?format=typesense", typesenseExport))).body).toEqual({
        imported: 1,
        errors: [],
        errorCount: 0,
      });
      for (const id of ["fmt1", "fmt2"]) expect((await s.call("admin", "DELETE", `/1.9/synonyms/${id}`)).status).toBe(200);
    });

    test("an export of more sets than a store holds is refused up front; an import's error list is bounded and counted", async () => {
      const tooMany = Array.from({ length: 5001 }, (_, i) => ({ id: `big${i}`, synonyms: [`bigword${i}`, `bigother${i}`] }));
      const refused = await s.call("admin", "POST", "/1.9/synonyms/import", tooMany);
      expect(refused.status).toBe(400);
      const text = await refused.text();
      expect(text.length).toBeLessThan(1000);
      expect(JSON.parse(text)).toMatchObject({
        message: expect.stringContaining("more than 5000 synonym sets"),
        details: [{ path: "body" }],
      });
      expect((await getJson(s, "/synonyms/big0", {}, "admin")).status).toBe(404);

      const bad = Array.from({ length: 300 }, (_, i) => ({ id: `bad id ${i}`, synonyms: ["x1", "y1"] }));
      const res = await json(await s.call("admin", "POST", "/1.9/synonyms/import", bad));
      expect(res.body.imported).toBe(0);
      expect(res.body.errorCount).toBe(300);
      expect((res.body.errors as { index: number }[]).map((e) => e.index)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    });

    test("export in each format imports back to the same sets", async () => {
      const all = async () =>
        (await getJson<{ synonyms: Record<string, unknown>[] }>(s, "/synonyms", { limit: 1000 }, "admin")).body.synonyms;
      const shape = (sets: Record<string, unknown>[]) => sets.map(({ updatedAt: _, ...rest }) => rest);
      const before = shape(await all());
      expect(before.length).toBeGreaterThan(5);
      const algolia = (await getJson<Record<string, unknown>[]>(s, "/synonyms/export", { format: "algolia" }, "admin")).body;
      expect(algolia.find((x) => x.objectID === "brolly")).toEqual({
        objectID: "brolly",
        type: "oneWaySynonym",
        input: "brolly",
        synonyms: ["umbrella"],
      });
      const typesense = (await getJson<Record<string, unknown>[]>(s, "/synonyms/export", { format: "typesense" }, "admin")).body;
      expect(typesense.find((x) => x.id === "rainwear")).toEqual({ id: "rainwear", synonyms: ["anorak", "Cagoule", "rain shell"] });
      const native = (await getJson<{ synonyms: Record<string, unknown>[] }>(s, "/synonyms/export", {}, "admin")).body;
      expect(shape(native.synonyms)).toEqual(before);

      for (const [format, exported] of [
        ["native", native],
        ["algolia", algolia],
        ["typesense", typesense],
      ] as const) {
        for (const set of before) expect((await s.call("admin", "DELETE", `/1.9/synonyms/${set.id}`)).status).toBe(200);
        expect(await all()).toEqual([]);
        const res = await json(await s.call("admin", "POST", `/1.9/synonyms/import?format=${format}`, exported));
        expect(res.body).toEqual({ imported: before.length, errors: [], errorCount: 0 });
        expect(shape(await all())).toEqual(before);
      }
      // Imported sets apply to search at once.
      expect((await ids("brolly")).sort()).toEqual(["brolly-stand", "umbrella"]);
    });

    test("at most 5,000 sets per store; a deleted store's sets go with it", async () => {
      const other = "synonym-limits";
      const keys = await s.createStore(other);
      const as = { "x-service-store-id": other, "x-service-api-key": keys.admin };
      const sets = Array.from({ length: 5000 }, (_, i) => ({ id: `s${i}`, synonyms: [`word${i}`, `other${i}`] }));
      const filled = await json(await s.call("admin", "POST", "/1.9/synonyms/import", sets, as));
      expect(filled.body).toEqual({ imported: 5000, errors: [], errorCount: 0 });
      await rejects(await s.call("admin", "PUT", "/1.9/synonyms/one-more", { synonyms: ["a1", "b1"] }, as), "path.id");
      const over = await json(
        await s.call(
          "admin",
          "POST",
          "/1.9/synonyms/import",
          [
            { id: "s1", synonyms: ["c1", "d1"] },
            { id: "new", synonyms: ["c1", "d1"] },
          ],
          as,
        ),
      );
      expect(over.body).toMatchObject({ imported: 1, errors: [{ index: 1, id: "new" }] });
      // Replacing an existing set is no new set.
      expect((await s.call("admin", "PUT", "/1.9/synonyms/s2", { synonyms: ["e1", "f1"] }, as)).status).toBe(200);
      // The default store does not see them.
      expect((await getJson(s, "/synonyms/s1", {}, "admin")).status).toBe(404);

      expect(await s.service.storeAdmin.delete(other)).toBe(true);
      const again = await s.createStore(other);
      const res = await s.call("admin", "GET", "/1.9/synonyms", undefined, {
        "x-service-store-id": other,
        "x-service-api-key": again.admin,
      });
      expect(await res.json()).toEqual({ synonyms: [], total: 0 });
    });
  });
