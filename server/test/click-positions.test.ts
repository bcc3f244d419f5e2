import { afterAll, beforeAll, expect, test } from "bun:test";
import { getJson } from "./support/search-client.ts";
import { errorBody, startTestServer, type TestServer } from "./support/test-server.ts";

/*
 * GET /reports/click-positions over clicks sent through POST /tracking (issue 41: clicks at 13 and 14 were left
 * out while positions without clicks were listed): every position clicked, lowest first, no zero rows, `limit`
 * rows at most, the totals counting every click.
 */

let s: TestServer;

const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `p${from + i}`);

/** A search for "dress" (20 a page) in its own session, and a click on the product at `position`. */
async function clickAt(position: number, session: string): Promise<void> {
  const page = Math.ceil(position / 20);
  const productIds = ids((page - 1) * 20 + 1, page * 20);
  const search = { query: "dress", productIds, page, pageSize: 20 };
  const res = await s.call(
    "analytics",
    "POST",
    "/1.9/tracking",
    [
      ["Search", { ...search, totalProducts: 2000 }],
      ["ProductClick", { ...search, clickProductId: `p${position}` }],
    ].map(([type, data]) => ({ type, data, sessionId: session, userId: `u-${session}` })),
  );
  expect(res.status).toBe(200);
}

interface ClickPositionsBody {
  clicks: number;
  averageClickPosition: number | null;
  positions: { position: number; clicks: number }[];
  beyond: number;
}

const report = async (params: Record<string, string | number> = {}) => {
  const { status, body } = await getJson<ClickPositionsBody>(s, "/reports/click-positions", params, "admin");
  expect(status).toBe(200);
  return body;
};

beforeAll(async () => {
  s = await startTestServer();
  // Position 1 twice, 13, 14 and 40 (page 2) once each, and one at 1,001: past what is counted per position.
  for (const [i, position] of [1, 1, 13, 14, 40, 1001].entries()) await clickAt(position, `s${i}`);
}, 60_000);
afterAll(() => s?.stop());

test("every position clicked is listed, lowest first, and none without clicks", async () => {
  expect(await report()).toEqual(
    expect.objectContaining({
      clicks: 6,
      averageClickPosition: Math.round(((1 + 1 + 13 + 14 + 40 + 1001) / 6) * 100) / 100,
      positions: [
        { position: 1, clicks: 2 },
        { position: 13, clicks: 1 },
        { position: 14, clicks: 1 },
        { position: 40, clicks: 1 },
      ],
      beyond: 1,
    }),
  );
});

test("limit counts rows: the lowest clicked positions, and beyond counts the clicks left out", async () => {
  const body = await report({ limit: 2 });
  expect(body.positions).toEqual([
    { position: 1, clicks: 2 },
    { position: 13, clicks: 1 },
  ]);
  expect(body.clicks).toBe(6);
  expect(body.beyond).toBe(3);
});

test("format=csv has the same rows", async () => {
  const res = await s.call("admin", "GET", "/1.9/reports/click-positions?format=csv");
  expect(res.status).toBe(200);
  expect((await res.text()).trimEnd().split("\r\n")).toEqual(['"position","clicks"', '"1","2"', '"13","1"', '"14","1"', '"40","1"']);
});

test("a limit that is not a whole number from 1 to 1000 is a 400 naming it", async () => {
  for (const limit of ["0", "1001", "ten", "-3"]) {
    const res = await s.call("admin", "GET", `/1.9/reports/click-positions?limit=${limit}`);
    expect(res.status, limit).toBe(400);
    expect((await errorBody(res)).message).toContain("query.limit");
  }
});
