import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { product } from "./support/fixtures.ts";
import { indexProducts } from "./support/search-client.ts";
import { startTestServer, tempDir, type TestServer } from "./support/test-server.ts";

/*
 * Response compression through the real server: Accept-Encoding negotiation on JSON answers, the head script
 * compressed once per build with its own tag per encoding. Requests are sent with `decompress: false`, so the
 * test sees the bytes on the wire and decodes them itself.
 */

let s: TestServer;
const scriptDir = tempDir("sfs-compress-");
// A head script of realistic texture: many small functions, far above the compression threshold.
const SCRIPT = Array.from({ length: 400 }, (_, i) => `export function part${i}(el){el.setAttribute("data-part","p${i}");return el;}`).join(
  "\n",
);
const SEARCH = "/1.9/search?query=shirt&pageSize=40&returnFacets=true";

beforeAll(async () => {
  const file = join(scriptDir, "widget.js");
  writeFileSync(file, SCRIPT);
  s = await startTestServer({ WIDGET_SCRIPT_FILE: file });
  await indexProducts(
    s,
    Array.from({ length: 40 }, (_, i) =>
      product(`shirt-${i}`, {
        name: `Cotton shirt ${i}`,
        description: `A regular fit cotton shirt, number ${i}, with a button-down collar.`,
      }),
    ),
  );
}, 60_000);
afterAll(async () => {
  await s.stop();
  rmSync(scriptDir, { recursive: true, force: true });
});

/** A request as the search key, with the bytes left as sent. */
const raw = (path: string, headers: Record<string, string>, method = "GET") =>
  fetch(s.url + path, {
    method,
    headers: { "x-service-store-id": s.storeId, "x-service-api-key": s.keys.search, ...headers },
    decompress: false,
  });

function decode(bytes: Uint8Array, encoding: string | null): string {
  const plain =
    encoding === "zstd"
      ? Bun.zstdDecompressSync(bytes)
      : encoding === "br"
        ? brotliDecompressSync(bytes)
        : encoding === "gzip"
          ? gunzipSync(bytes)
          : bytes;
  return new TextDecoder().decode(plain);
}

async function identityBody(path: string): Promise<string> {
  const res = await raw(path, { "accept-encoding": "identity" });
  expect(res.headers.get("content-encoding")).toBeNull();
  return res.text();
}

const varyFields = (res: Response) => (res.headers.get("vary") ?? "").split(",").map((f) => f.trim().toLowerCase());

describe("JSON answers", () => {
  test("the answer compared is large enough to be compressed", async () => {
    expect((await identityBody(SEARCH)).length).toBeGreaterThan(8 * 1024);
  });

  const cases: [string, string | null][] = [
    ["br", "br"],
    ["gzip", "gzip"],
    ["zstd", "zstd"],
    // What Chrome, Firefox and Bun's fetch send: zstd is the fastest of them at the size of a search answer.
    ["gzip, deflate, br, zstd", "zstd"],
    ["gzip, deflate, br", "br"],
    ["zstd;q=0.5, br", "br"],
    ["gzip;q=1, br;q=0.5", "gzip"],
    ["br;q=0.8, gzip;q=0.8", "br"],
    ["BR;Q=0.5", "br"],
    ["*", "zstd"],
    ["zstd;q=0, br;q=0, *", "gzip"],
    ["br;q=0, gzip;q=0", null],
    ["*;q=0", null],
    ["gzip;q=banana", null],
    ["identity", null],
    ["deflate", null],
    ["", null],
  ];
  for (const [accept, expected] of cases) {
    test(`Accept-Encoding "${accept}" gets ${expected ?? "identity"}, and the same JSON`, async () => {
      const plain = await identityBody(SEARCH);
      const res = await raw(SEARCH, { "accept-encoding": accept });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-encoding")).toBe(expected);
      expect(varyFields(res)).toContain("accept-encoding");
      const bytes = new Uint8Array(await res.arrayBuffer());
      if (expected) expect(bytes.length).toBeLessThan(plain.length / 3);
      const length = res.headers.get("content-length");
      if (length !== null) expect(Number(length)).toBe(bytes.length);
      expect(JSON.parse(decode(bytes, expected))).toEqual(JSON.parse(plain));
    });
  }

  test("a CORS answer keeps Vary: Origin and adds Accept-Encoding", async () => {
    const res = await raw(SEARCH, { "accept-encoding": "br", origin: "https://shop.example" });
    expect(res.headers.get("access-control-allow-origin")).toBe("https://shop.example");
    expect(res.headers.get("content-encoding")).toBe("br");
    expect(varyFields(res)).toEqual(["origin", "accept-encoding"]);
  });

  test("small bodies go out as they are", async () => {
    const res = await fetch(s.url + "/health", { headers: { "accept-encoding": "br, gzip" }, decompress: false });
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(await res.json()).toMatchObject({ status: "ok" });
  });

  test("HEAD has no body and no encoding", async () => {
    const res = await fetch(s.url + "/docs/openapi.json", { method: "HEAD", headers: { "accept-encoding": "br" }, decompress: false });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBeNull();
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  test("a body above the per-request limit (the 3.5 MB docs bundle) is not compressed per request", async () => {
    const res = await fetch(s.url + "/docs/assets/scalar.js", { headers: { "accept-encoding": "br, gzip" }, decompress: false });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBeNull();
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(1024 * 1024);
  });
});

describe("head script", () => {
  const PATHS = ["/widget/v1/widget.js"];
  beforeAll(async () => {
    const link = (await fetch(s.url + "/widget/v1/widget.js")).headers.get("link")!;
    PATHS.push(/<([^>]+)>/.exec(link)![1]!);
  });

  for (const [accept, encoding, suffix] of [
    ["br", "br", "-br"],
    ["gzip", "gzip", "-gz"],
    ["zstd", "zstd", "-zst"],
    // Static bodies are compressed once at the highest levels, where brotli is the smallest.
    ["gzip, deflate, br, zstd", "br", "-br"],
    ["identity", null, ""],
  ] as const) {
    test(`${accept}: decoded equals the built script, with a tag of its own that revalidates with 304`, async () => {
      for (const path of PATHS) {
        const res = await fetch(s.url + path, { headers: { "accept-encoding": accept }, decompress: false });
        expect(res.status).toBe(200);
        expect(res.headers.get("content-encoding")).toBe(encoding);
        expect(varyFields(res)).toContain("accept-encoding");
        const etag = res.headers.get("etag")!;
        expect(etag).toMatch(new RegExp(`^"[0-9a-f]{12}${suffix}"$`));
        const bytes = new Uint8Array(await res.arrayBuffer());
        expect(decode(bytes, encoding)).toBe(SCRIPT);
        if (encoding) expect(bytes.length).toBeLessThan(SCRIPT.length / 4);

        const again = await fetch(s.url + path, { headers: { "accept-encoding": accept, "if-none-match": etag }, decompress: false });
        expect(again.status).toBe(304);
        expect(again.headers.get("etag")).toBe(etag);
        expect((await again.arrayBuffer()).byteLength).toBe(0);
      }
    });
  }

  test("a tag of another encoding does not revalidate: the client gets the bytes it can decode", async () => {
    const gz = (await fetch(s.url + "/widget/v1/widget.js", { headers: { "accept-encoding": "gzip" }, decompress: false })).headers.get(
      "etag",
    )!;
    const res = await fetch(s.url + "/widget/v1/widget.js", {
      headers: { "accept-encoding": "br", "if-none-match": gz },
      decompress: false,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBe("br");
    expect(decode(new Uint8Array(await res.arrayBuffer()), "br")).toBe(SCRIPT);
  });
});
