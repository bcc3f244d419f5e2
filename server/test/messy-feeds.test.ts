import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { product } from "./support/fixtures.ts";
import { errorBody, reopenTestServer, startTestServer, tempDir, type TestServer } from "./support/test-server.ts";

/*
 * Messy feeds against the real server: null optionals and blank strings are dropped and counted as warnings;
 * in a bulk, valid products are indexed and each invalid one reported, in the answer and on the task.
 */

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.stop());

interface Rejected {
  index: number;
  productId?: string;
  path: string;
  message: string;
  otherProblems?: { path: string; message: string }[];
}
interface Accepted {
  taskId: string;
  accepted: number;
  warnings: number;
  rejectedCount: number;
  rejected: Rejected[];
}

async function post(body: unknown, server = s): Promise<{ status: number; body: Accepted; bytes: number }> {
  const res = await server.call("admin", "POST", "/1.0/products", body);
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as Accepted, bytes: text.length };
}

async function task(taskId: string, server = s): Promise<Record<string, unknown>> {
  const res = await server.call("admin", "GET", `/1.0/tasks/${taskId}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

async function stored(id: string): Promise<Record<string, unknown> | null> {
  const res = await s.call("admin", "GET", `/1.0/products/${encodeURIComponent(id)}`);
  return res.status === 200 ? ((await res.json()) as { product: Record<string, unknown> }).product : null;
}

async function searchIds(query: string): Promise<string[]> {
  const res = await s.call("search", "GET", `/1.9/search?query=${encodeURIComponent(query)}&pageSize=100`);
  expect(res.status).toBe(200);
  const body = (await res.json()) as { fallback?: boolean; products: { productId: string }[] };
  return body.fallback ? [] : body.products.map((p) => p.productId).sort();
}

describe("null optionals and blank strings are dropped, counted as warnings", () => {
  test("a bulk with nulls and blank entries is accepted; the stored product has them dropped", async () => {
    const messy = {
      id: "messy-1",
      name: "Messy linen shirt",
      brand: null, // 1
      description: "   ", // 2: a blank optional string is no value
      gender: "", // 3
      arrivalDateTs: null, // 4
      features: ["", "Soft linen", " \t"], // 5, 6
      categories: ["Apparel", "", "Shirts"], // 7
      collections: [" "], // 8
      relatedIds: ["", "messy-2", null], // 9, 10
      fitInformation: [null, "Slim"], // 11
      tags: ["season:summer", ""], // 12
      variations: [{ id: "messy-1-navy", name: null, swatch: null }], // 13, 14
      media: [{ url: "https://img.example/m1.png", variationId: null, altText: "" }, null], // 15, 16, 17
      skus: [{ price: 10, size: null, availability: "InStock", tags: [""], condition: ["", "new"] }], // 18, 19, 20
      popularity: { type: "STAR", data: { overallRating: 4, maxRating: 5, reviewCount: null } }, // 21
      customUserData: { badges: ["", "New"], empty: null }, // 22, 23
    };
    const clean = { ...product("messy-2"), slug: null, url: null }; // 24, 25
    const answer = await post([messy, clean]);
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ taskId: expect.any(String), accepted: 2, warnings: 25, rejectedCount: 0, rejected: [] });
    expect(await s.waitForTask(answer.body.taskId)).toMatchObject({ status: "complete" });
    expect(await task(answer.body.taskId)).toMatchObject({ itemCount: 2, processedCount: 2, warnings: 25, rejectedCount: 0, rejected: [] });
    expect(await stored("messy-1")).toEqual({
      id: "messy-1",
      name: "Messy linen shirt",
      features: ["Soft linen"],
      categories: ["Apparel", "Shirts"],
      collections: [],
      relatedIds: ["messy-2"],
      fitInformation: ["Slim"],
      tags: ["season:summer"],
      variations: [{ id: "messy-1-navy" }],
      media: [{ url: "https://img.example/m1.png" }],
      skus: [{ price: 10, availability: "InStock", tags: [], condition: ["new"] }],
      popularity: { type: "STAR", data: { overallRating: 4, maxRating: 5 } },
      customUserData: { badges: ["New"] },
    });
    expect(await stored("messy-2")).toEqual(product("messy-2"));
    expect(await searchIds("messy linen")).toEqual(["messy-1"]);
  });

  test("a single object with a null optional is accepted with a warning", async () => {
    const answer = await post({ id: "single-null", name: "Single", brand: null });
    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({ accepted: 1, warnings: 1, rejectedCount: 0, rejected: [] });
    await s.waitForTask(answer.body.taskId);
    expect(await stored("single-null")).toEqual({ id: "single-null", name: "Single" });
  });

  test("required fields are never cleaned into existence: a null or blank name or id stays invalid", async () => {
    for (const [body, path] of [
      [{ id: "no-name-1", name: null }, "body.name"],
      [{ id: "no-name-2", name: "" }, "body.name"],
      [{ id: "", name: "Blank id" }, "body.id"],
      [{ id: null, name: "Null id" }, "body.id"],
      [{ id: "x", name: "y", media: [{ url: "" }] }, "body.media[0].url"],
      [{ id: "x", name: "y", popularity: { type: "STAR", data: null } }, "body.popularity.data"],
      [{ id: "x", name: "y", colour: null }, "body.colour"],
    ] as const) {
      const res = await s.call("admin", "POST", "/1.0/products", body);
      expect(res.status).toBe(400);
      expect((await errorBody(res)).details?.map((d) => d.path)).toContain(path);
    }
  });

  test("popularity data is cleaned by the schema of its type: a field of another type stays unknown", async () => {
    const res = await s.call("admin", "POST", "/1.0/products", {
      id: "pop-x",
      name: "Pop",
      popularity: { type: "LIKES", data: { thumbsUpCount: null } },
    });
    expect(res.status).toBe(400);
    expect((await errorBody(res)).details).toContainEqual({ path: "body.popularity.data.thumbsUpCount", problem: "is not a known field" });
  });
});

describe("partial acceptance of a bulk", () => {
  test("a bulk of 5 with 2 invalid: 202 with both reported, the task says the same, only the 3 valid are indexed", async () => {
    const body = [
      product("part-0", { name: "Quillfeather jacket 0" }),
      product("part-1", { name: "Quillfeather jacket 1", gender: "Woman" as never }),
      product("part-2", { name: "Quillfeather jacket 2" }),
      { ...product("part-3", { name: "Quillfeather jacket 3" }), skus: [{ price: -5, availability: "Maybe" }] },
      product("part-4", { name: "Quillfeather jacket 4" }),
    ];
    const answer = await post(body);
    expect(answer.status).toBe(202);
    const rejected: Rejected[] = [
      { index: 1, productId: "part-1", path: "body[1].gender", message: "must be one of Women, Men, Unisex" },
      {
        index: 3,
        productId: "part-3",
        path: "body[3].skus[0].price",
        message: "expected number to be greater or equal to 0",
        otherProblems: [{ path: "body[3].skus[0].availability", message: "must be one of InStock, OutOfStock" }],
      },
    ];
    expect(answer.body).toEqual({ taskId: expect.any(String), accepted: 3, warnings: 0, rejectedCount: 2, rejected });
    expect(await s.waitForTask(answer.body.taskId)).toMatchObject({ status: "complete" });
    expect(await task(answer.body.taskId)).toMatchObject({
      status: "complete",
      itemCount: 3,
      processedCount: 3,
      warnings: 0,
      rejectedCount: 2,
      rejected,
    });
    expect(await searchIds("quillfeather")).toEqual(["part-0", "part-2", "part-4"]);
    expect(await stored("part-1")).toBeNull();
    expect(await stored("part-3")).toBeNull();
  });

  test("a rejected product without a usable id is reported by index only", async () => {
    const answer = await post([product("ok-id"), { id: "bad\u0000id", name: "Control char" }, { name: "No id" }, 42, null]);
    expect(answer.status).toBe(202);
    expect(answer.body.rejected.map((r) => [r.index, r.productId, r.path])).toEqual([
      [1, undefined, "body[1].id"],
      [2, undefined, "body[2].id"],
      [3, undefined, "body[3]"],
      [4, undefined, "body[4]"],
    ]);
    for (const r of answer.body.rejected) expect(r).not.toHaveProperty("productId");
  });

  test("a bulk where no product is valid is a 400 naming every product's problem, and nothing is indexed", async () => {
    const res = await s.call("admin", "POST", "/1.0/products", [
      product("none-0", { gender: "x" as never }),
      product("none-1", { skus: [{ price: 10, availability: "Maybe" as never }] }),
      { id: "none-2", name: null },
    ]);
    expect(res.status).toBe(400);
    const body = await errorBody(res);
    expect(body.code).toBe("invalid_request");
    expect(body.message).toBe("No valid product in the request: body[0].gender must be one of Women, Men, Unisex");
    expect(body.details).toEqual([
      { path: "body[0].gender", problem: "must be one of Women, Men, Unisex" },
      { path: "body[1].skus[0].availability", problem: "must be one of InStock, OutOfStock" },
      { path: "body[2].name", problem: "expected string" },
    ]);
    expect(await stored("none-0")).toBeNull();
  });

  test("a single invalid object is a 400", async () => {
    const res = await s.call("admin", "POST", "/1.0/products", product("single-bad", { ageGroup: "Elders" as never }));
    expect(res.status).toBe(400);
    const body = await errorBody(res);
    expect(body.message).toBe("Invalid product: body.ageGroup must be one of Adults, Teens, Kids");
    expect(await stored("single-bad")).toBeNull();
  });

  test("duplicate ids in one bulk: the last valid one wins; an invalid duplicate is reported and changes nothing", async () => {
    const answer = await post([product("twice", { name: "First" }), product("twice", { name: "Second" }), product("twice", { name: "" })]);
    expect(answer.body).toMatchObject({
      accepted: 2,
      rejectedCount: 1,
      rejected: [{ index: 2, productId: "twice", path: "body[2].name" }],
    });
    await s.waitForTask(answer.body.taskId);
    expect((await stored("twice"))?.name).toBe("Second");
  });

  test("the report is bounded: 10,000 products with every other one invalid", async () => {
    const body = Array.from({ length: 10_000 }, (_, i) => {
      if (i % 2 === 0) return { id: `big-${i}`, name: `Bounded ${i}` };
      // Many problems each, and in the first ones an unknown key of 100 KB: neither may blow up the report.
      const bad = { id: `big-${i}`, name: "", gender: "x", ageGroup: "y", arrivalDateTs: -1, skus: [{ price: -1 }, { price: -2 }] };
      return i < 40 ? { ["k".repeat(100_000)]: 1, ...bad } : bad;
    });
    const answer = await post(body);
    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({ accepted: 5000, warnings: 0, rejectedCount: 5000 });
    expect(answer.body.rejected).toHaveLength(100);
    expect(answer.body.rejected.map((r) => r.index)).toEqual(Array.from({ length: 100 }, (_, i) => 2 * i + 1));
    for (const r of answer.body.rejected) {
      expect(r.otherProblems!.length).toBe(4);
      for (const p of [r, ...r.otherProblems!]) expect(p.path.length).toBeLessThan(200);
    }
    expect(answer.bytes).toBeLessThan(100_000);
    const t = await task(answer.body.taskId);
    expect(t).toMatchObject({ itemCount: 5000, rejectedCount: 5000 });
    expect(t.rejected).toEqual(answer.body.rejected);
    expect(await s.waitForTask(answer.body.taskId, 60_000)).toMatchObject({ status: "complete" });
    expect(await stored("big-9998")).toEqual({ id: "big-9998", name: "Bounded 9998" });
    expect(await stored("big-9999")).toBeNull();
  }, 90_000);
});

describe("the report is durable", () => {
  test("warnings and rejections on a task survive a restart", async () => {
    const first = await startTestServer({}, tempDir());
    let server = first;
    try {
      const answer = await post([product("dur-0", { brand: null as never }), product("dur-1", { gender: "?" as never })], server);
      expect(answer.status).toBe(202);
      const before = await task(answer.body.taskId, server);
      expect(before).toMatchObject({ warnings: 1, rejectedCount: 1, rejected: [{ index: 1, productId: "dur-1", path: "body[1].gender" }] });
      await server.stop();
      server = await reopenTestServer(first);
      const report = ({ createdAt, itemCount, warnings, rejectedCount, rejected }: Record<string, unknown>) => ({
        createdAt,
        itemCount,
        warnings,
        rejectedCount,
        rejected,
      });
      expect(report(await task(answer.body.taskId, server))).toEqual(report(before));
      expect(await server.waitForTask(answer.body.taskId)).toMatchObject({ status: "complete" });
    } finally {
      await server.stop();
      rmSync(first.dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
