import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { parseImagePath, productImageUrl, renderImage } from "../../demo-store/src/catalog/images.ts";
import { DEMO_KEYS, spawnDrainedServer, type ChildServer } from "./support/child-server.ts";
import { product } from "./support/fixtures.ts";
import { makeTestCerts } from "./support/test-certs.ts";
import { tempDir } from "./support/test-server.ts";
import { startTestReceiver, until, type TestReceiver } from "./support/webhook-support.ts";

/*
 * kill -9 while products are being enriched, then a restart on the same data: every product still gets exactly
 * one delivery per stage (a stage that had not committed runs again; one that had is not repeated), and search
 * ends up with what every stage found (words and colours), including the stages whose search update the dead
 * process never made.
 */

const PRODUCTS = 40;
/** Slow images keep the image stages in flight long enough to kill the server among them. */
const IMAGE_DELAY_MS = 120;

const certs = makeTestCerts();
const dataDir = tempDir("sfs-enrichment-crash-");
const env = {
  DATA_DIR: dataDir,
  ...DEMO_KEYS,
  LOG_LEVEL: "error",
  WEBHOOK_CA_FILE: certs.caFile,
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
  ENRICHMENT_ALLOW_PRIVATE_NETWORKS: "true",
  // A call the kill cut off is retried after 30 ms instead of 30 s.
  WEBHOOK_RETRY_TIME_SCALE: "0.001",
};
const headers = (key: string) => ({
  "x-service-store-id": DEMO_KEYS.DEMO_STORE_ID,
  "x-service-api-key": key,
  "content-type": "application/json",
});
const admin = headers(DEMO_KEYS.DEMO_ADMIN_KEY);
const images = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(req) {
    await Bun.sleep(IMAGE_DELAY_MS);
    const parsed = parseImagePath(new URL(req.url).pathname);
    return parsed
      ? new Response(renderImage(parsed), { headers: { "content-type": "image/svg+xml" } })
      : new Response("no", { status: 404 });
  },
});
let running: ChildServer | null = null;
let receiver: TestReceiver | null = null;

afterAll(async () => {
  running?.proc.kill(9);
  await receiver?.close();
  images.stop(true);
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(certs.dir, { recursive: true, force: true });
});

const start = () => spawnDrainedServer(env);

async function searchBody(
  url: string,
  params: Record<string, string>,
): Promise<{ totalProductCount: number; facets: { key: string; values: { key: string; count: number }[] }[] }> {
  const res = await fetch(`${url}/1.9/search?${new URLSearchParams(params)}`, { headers: headers(DEMO_KEYS.DEMO_SEARCH_KEY) });
  expect(res.status).toBe(200);
  return (await res.json()) as never;
}

test("enrichment killed mid-way resumes: one delivery per product and stage, and search has every stage's result", async () => {
  running = await start();
  receiver = await startTestReceiver(certs, { secret: () => secret, outFile: join(dataDir, "received.jsonl") });
  const subscribed = await fetch(`${running.url}/1.9/webhooks`, {
    method: "POST",
    headers: admin,
    body: JSON.stringify({ url: receiver.url, topic: "tags" }),
  });
  expect(subscribed.status).toBe(201);
  const { id: webhookId, secret } = (await subscribed.json()) as { id: string; secret: string };
  const products = Array.from({ length: PRODUCTS }, (_, i) =>
    product(`sweater-${i}`, {
      name: `Knitted wool sweater ${i}`,
      description: "A warm sweater.",
      categories: ["Apparel", "Topwear", "Sweaters"],
      variations: [{ id: `sweater-${i}-v`, name: "Multi" }],
      media: [{ url: productImageUrl(`http://127.0.0.1:${images.port}`, "top", ["#c0392b"], "m"), variationId: `sweater-${i}-v` }],
    }),
  );
  const posted = await fetch(`${running.url}/1.9/products`, { method: "POST", headers: admin, body: JSON.stringify(products) });
  expect(posted.status).toBe(202);

  // Text stages are quick; image stages come 4 at a time, each waiting for its image.
  const atKill = await until(
    () => (receiver!.calls.length >= PRODUCTS + 8 ? receiver!.calls.length : null),
    30_000,
    "some image-stage calls",
  );
  running.proc.kill(9);
  await running.proc.exited;
  expect(atKill).toBeLessThan(2 * PRODUCTS);

  running = await start();
  const url = running.url;
  const deliveries = await until(
    async () => {
      const res = await fetch(`${url}/1.9/webhooks/${webhookId}/deliveries?limit=1000`, { headers: admin });
      const list = ((await res.json()) as { deliveries: { productId: string; stage: string; status: string }[] }).deliveries;
      return list.length >= 2 * PRODUCTS && list.every((d) => d.status === "succeeded") ? list : null;
    },
    60_000,
    "every stage of every product delivered",
  );
  const perStage = new Map<string, number>();
  for (const d of deliveries) perStage.set(`${d.productId}/${d.stage}`, (perStage.get(`${d.productId}/${d.stage}`) ?? 0) + 1);
  expect(perStage.size).toBe(2 * PRODUCTS);
  expect([...perStage.values()].every((n) => n === 1)).toBe(true);

  // Search: every product is found ("jumper" is English for their type) and carries its image's colour (image stage).
  const found = await until(
    async () => {
      const body = await searchBody(url, { query: "jumper", returnFacets: "true", pageSize: "1" });
      const red = body.facets.find((f) => f.key === "color")?.values.find((v) => v.key === "Red")?.count ?? 0;
      return body.totalProductCount === PRODUCTS && red === PRODUCTS ? body : null;
    },
    20_000,
    "every product found by its synonym and its image's colour",
  );
  expect(found.totalProductCount).toBe(PRODUCTS);
}, 120_000);
