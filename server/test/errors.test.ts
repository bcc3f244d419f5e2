import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { product } from "./support/fixtures.ts";
import { malformedBodies } from "./support/fuzz.ts";
import { errorBody, startTestServer, type TestServer } from "./support/test-server.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ MAX_BODY_BYTES: String(64 * 1024) });
});
afterAll(() => s.stop());

describe("error statuses, each with a JSON { message, code } body", () => {
  test("400 for a body that is not JSON", async () => {
    const res = await s.call("admin", "POST", "/1.0/products", '{"id": "1",');
    expect(res.status).toBe(400);
    expect((await errorBody(res)).code).toBe("invalid_json");
  });

  test("400 names the item and the field of each invalid product when no product of a bulk is valid", async () => {
    const res = await s.call("admin", "POST", "/1.0/products", [
      product("bad-0", { gender: "Nobody" as never }),
      product("bad-1", { skus: [{ price: 10, availability: "Maybe" as never }] }),
    ]);
    expect(res.status).toBe(400);
    const body = await errorBody(res);
    expect(body.code).toBe("invalid_request");
    expect(body.details).toContainEqual({ path: "body[0].gender", problem: "must be one of Women, Men, Unisex" });
    expect(body.details).toContainEqual({ path: "body[1].skus[0].availability", problem: "must be one of InStock, OutOfStock" });
  });

  test("400 for a missing id, unknown fields, wrong popularity data, empty and oversized arrays", async () => {
    const cases: [unknown, string][] = [
      [{ name: "no id" }, "body.id"],
      [{ id: "x", name: "y", colour: "red" }, "body.colour"],
      [{ id: "x", name: "y", popularity: { type: "LIKES", data: { overallRating: 4 } } }, "body.popularity.data.overallRating"],
      [{ id: "x", name: "y", tags: ["no-prefix"] }, "body.tags[0]"],
      [{ id: "x", name: "y", arrivalDateTs: 1.5 }, "body.arrivalDateTs"],
      [[], "body"],
    ];
    for (const [body, path] of cases) {
      const res = await s.call("admin", "POST", "/1.0/products", body);
      expect(res.status).toBe(400);
      expect((await errorBody(res)).details?.map((d) => d.path)).toContain(path);
    }
    const longKey = await s.call("admin", "POST", "/1.0/products", { id: "x", name: "y", customUserData: { ["k".repeat(101)]: ["v"] } });
    expect(longKey.status).toBe(400);
    expect((await errorBody(longKey)).details?.[0]?.path).toStartWith("body.customUserData");
  });

  test("401 without credentials", async () => {
    expect((await errorBody(await s.call(null, "GET", "/1.0/events"))).code).toBe("unauthorized");
  });

  test("404 for unknown routes, versions, tasks and products, also another store's task", async () => {
    for (const path of ["/nope", "/1.0/nope", "/3.0/tasks/x", "/0.8/events"]) {
      const res = await s.call("admin", "GET", path);
      expect(res.status).toBe(404);
      expect((await errorBody(res)).code).toBe("not_found");
    }
    expect((await s.call("admin", "GET", "/1.0/tasks/unknown")).status).toBe(404);
    expect((await s.call("admin", "GET", "/1.0/products/unknown")).status).toBe(404);
    const taskId = ((await (await s.call("admin", "POST", "/1.0/products", product("mine"))).json()) as { taskId: string }).taskId;
    const other = await s.createStore("second-store");
    const res = await s.call("admin", "GET", `/1.0/tasks/${taskId}`, undefined, {
      "x-service-store-id": "second-store",
      "x-service-api-key": other.admin,
    });
    expect(res.status).toBe(404);
  });

  test("every version in the spec's table is served", async () => {
    for (const v of ["0.9", "1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "1.6", "1.7", "1.8", "1.9"]) {
      expect((await s.call("admin", "GET", `/${v}/events`)).status).toBe(200);
    }
  });

  test("405 with Allow for a wrong method", async () => {
    const res = await s.call("admin", "PUT", "/1.0/products", product("x"));
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect((await errorBody(res)).code).toBe("method_not_allowed");
  });

  test("413 over MAX_BODY_BYTES, declared or streamed", async () => {
    const big = JSON.stringify([product("big", { description: "x".repeat(70 * 1024) })]);
    const res = await s.call("admin", "POST", "/1.0/products", big);
    expect(res.status).toBe(413);
    expect((await errorBody(res)).code).toBe("payload_too_large");
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < 80; i++) c.enqueue(new TextEncoder().encode("x".repeat(1024)));
        c.close();
      },
    });
    const chunked = await fetch(s.url + "/1.0/products", {
      method: "POST",
      headers: { "x-service-store-id": s.storeId, "x-service-api-key": s.keys.admin, "content-type": "application/json" },
      body: stream,
    });
    expect(chunked.status).toBe(413);
  });

  test("415 for a body that is not application/json", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded", ""]) {
      const res = await fetch(s.url + "/1.0/products", {
        method: "POST",
        headers: { "x-service-store-id": s.storeId, "x-service-api-key": s.keys.admin, ...(type ? { "content-type": type } : {}) },
        body: JSON.stringify(product("p")),
      });
      expect(res.status).toBe(415);
      expect((await errorBody(res)).code).toBe("unsupported_media_type");
    }
  });

  test("health needs no key and answers JSON, with enrichment's progress per stage", async () => {
    const res = await fetch(s.url + "/health");
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(await res.json()).toEqual({
      status: "ok",
      enrichment: {
        text: { done: expect.any(Number), total: expect.any(Number) },
        image: { done: expect.any(Number), total: expect.any(Number) },
      },
    });
  });
});

describe("fuzz: 10,000 malformed bodies never give a 5xx", () => {
  const validProducts = [
    product("f1"),
    product("f2", {
      popularity: {
        type: "STAR",
        data: { overallRating: 4.2, maxRating: 5, reviewCount: 10, ratingSummary: [{ rating: "5", count: "7" }] },
      },
    }),
    product("f3", {
      media: [{ url: "https://img.example/a.png", altText: "a" }],
      customUserData: { badges: ["New"] },
      arrivalDateTs: 1700000000000,
    }),
  ];
  const validEvents = [
    {
      type: "Search",
      data: { query: "shirt", productIds: ["a"], pageSize: 30, facets: [{ key: "designer", value: "Nike" }] },
      userId: "u1",
    },
    { type: "OrderComplete", data: { orderId: "o1", products: [{ id: "a", price: 10, qty: 1 }] }, sessionId: "s1" },
    { type: "CTLProductClick", data: { baseProductId: "a", selectedProduct: { productId: "b", position: 2 } } },
  ];

  async function fire(path: string, key: string, bodies: string[]): Promise<number[]> {
    const statuses: number[] = [];
    let next = 0;
    const worker = async () => {
      while (next < bodies.length) {
        const body = bodies[next++]!;
        const res = await s.call("admin", "POST", path, body, { "x-service-api-key": key });
        statuses.push(res.status);
        if (res.status >= 400) await errorBody(res);
        else await res.arrayBuffer();
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    return statuses;
  }

  test("5,000 product bodies", async () => {
    const statuses = await fire("/1.0/products", s.keys.admin, malformedBodies(validProducts, 5000, 1));
    expect(statuses.filter((x) => x >= 500)).toEqual([]);
    // Not every broken body is a 400: null optionals and blank strings are dropped, and a bulk with one valid
    // product is accepted with the broken ones reported (messy-feeds.test.ts).
    expect(statuses.filter((x) => x === 400).length).toBeGreaterThan(3000);
  }, 120_000);

  test("5,000 event bodies", async () => {
    const statuses = await fire("/1.0/tracking", s.keys.analytics, malformedBodies(validEvents, 5000, 2));
    expect(statuses.filter((x) => x >= 500)).toEqual([]);
    expect(statuses.filter((x) => x === 400).length).toBeGreaterThan(3000);
    expect((await fetch(s.url + "/health")).status).toBe(200);
  }, 120_000);
});
