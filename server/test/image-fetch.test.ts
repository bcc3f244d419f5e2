import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import sharp from "sharp";
import { fetchImage } from "../src/modules/enrichment/image-fetch.ts";

/*
 * The image fetcher against a local server. Refusals of private addresses are checked by the server's request
 * count: a refused URL must not reach it at all, not merely have its answer dropped.
 */

let server: ReturnType<typeof Bun.serve>;
let base: string;
let port: number;
const seen: { path: string; host: string | null }[] = [];
/** Bytes the endless image has handed to the connection so far. */
let endlessSent = 0;
let png: Uint8Array<ArrayBuffer>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  png = new Uint8Array(
    await sharp({ create: { width: 8, height: 8, channels: 3, background: "#c62828" } })
      .png()
      .toBuffer(),
  );
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      seen.push({ path: url.pathname, host: req.headers.get("host") });
      switch (url.pathname) {
        case "/red.png":
          return new Response(png, { headers: { "content-type": "image/png" } });
        case "/red.svg":
          return new Response('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>', {
            headers: { "content-type": "image/svg+xml; charset=utf-8" },
          });
        case "/page.html":
          return new Response("<html>not an image</html>", { headers: { "content-type": "text/html; charset=utf-8" } });
        case "/missing.png":
          return new Response("no", { status: 404, headers: { "content-type": "text/plain" } });
        case "/declared-huge.png":
          return new Response(new Uint8Array(64 * 1024), { headers: { "content-type": "image/png" } });
        case "/endless.png": {
          // No Content-Length: the cap has to stop the stream itself.
          endlessSent = 0;
          const chunk = new Uint8Array(16 * 1024);
          return new Response(
            new ReadableStream({
              async pull(controller) {
                if (endlessSent > 64 * 1024 * 1024) return controller.close();
                endlessSent += chunk.length;
                controller.enqueue(chunk);
                await sleep(1);
              },
            }),
            { headers: { "content-type": "image/png" } },
          );
        }
        case "/slow.png":
          await sleep(3_000);
          return new Response(png, { headers: { "content-type": "image/png" } });
        case "/slow-body.png":
          return new Response(
            new ReadableStream({
              async start(controller) {
                controller.enqueue(png.subarray(0, 10));
                await sleep(3_000);
                controller.close();
              },
            }),
            { headers: { "content-type": "image/png" } },
          );
        case "/to-red":
          return new Response(null, { status: 302, headers: { location: "/red.png" } });
        case "/to-loop":
          return new Response(null, { status: 302, headers: { location: "/to-loop" } });
        default:
          if (url.pathname.startsWith("/to/")) {
            return new Response(null, { status: 302, headers: { location: decodeURIComponent(url.pathname.slice(4)) } });
          }
          return new Response("?", { status: 404 });
      }
    },
  });
  port = server.port!;
  base = `http://127.0.0.1:${port}`;
});

afterAll(() => server.stop(true));

const allowPrivate = { allowPrivateNetworks: true };

describe("private addresses are refused before any request", () => {
  const urls = () => [
    `${base}/red.png`,
    `http://localhost:${port}/red.png`,
    `http://[::1]:${port}/red.png`,
    `http://[::ffff:127.0.0.1]:${port}/red.png`,
    `http://0x7f.0.0.1:${port}/red.png`, // the URL parser reads it as 127.0.0.1
    `http://2130706433:${port}/red.png`,
    `http://127.1:${port}/red.png`,
    "http://169.254.169.254/latest/meta-data/",
    "http://100.64.0.1/x.png",
    "http://10.0.0.1/x.png",
    "http://192.168.1.1/x.png",
    "http://[fd00:ec2::254]/x.png",
  ];

  test("every one is private-address and the server saw nothing", async () => {
    const before = seen.length;
    for (const url of urls()) {
      const result = await fetchImage(url, { timeoutMs: 2_000 });
      expect({ url, reason: result.ok ? "ok" : result.reason }).toEqual({ url, reason: "private-address" });
    }
    expect(seen.length).toBe(before);
  });
});

describe("with allowPrivateNetworks", () => {
  test("a PNG is fetched, with the URL's host as Host header", async () => {
    const result = await fetchImage(`http://localhost:${port}/red.png`, allowPrivate);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Buffer.compare(result.bytes, png)).toBe(0);
    expect(result.contentType).toBe("image/png");
    expect(seen.at(-1)).toEqual({ path: "/red.png", host: `localhost:${port}` });
  });

  test("a content type with a charset is accepted", async () => {
    const result = await fetchImage(`${base}/red.svg`, allowPrivate);
    expect(result.ok && result.contentType).toBe("image/svg+xml");
  });

  test("a body over the cap is too-large: declared, or streamed without a length", async () => {
    const declared = await fetchImage(`${base}/declared-huge.png`, { ...allowPrivate, maxBytes: 1024 });
    expect(declared.ok ? "ok" : declared.reason).toBe("too-large");
    const streamed = await fetchImage(`${base}/endless.png`, { ...allowPrivate, maxBytes: 256 * 1024 });
    expect(streamed.ok ? "ok" : streamed.reason).toBe("too-large");
    // It stopped at the cap rather than reading the server's 64 MiB (a few chunks past it sit in buffers).
    expect(endlessSent).toBeLessThan(4 * 1024 * 1024);
  });

  test("a slow answer or a slow body is a timeout at the deadline", async () => {
    // The image would arrive whole after 3 s: a timeout means the 200 ms deadline ended the fetch first.
    for (const path of ["/slow.png", "/slow-body.png"]) {
      const result = await fetchImage(`${base}${path}`, { ...allowPrivate, timeoutMs: 200 });
      expect(result.ok ? "ok" : result.reason).toBe("timeout");
    }
  });

  test("text/html is bad-content-type, a 404 is http-status", async () => {
    const html = await fetchImage(`${base}/page.html`, allowPrivate);
    expect(html.ok ? "ok" : html.reason).toBe("bad-content-type");
    const missing = await fetchImage(`${base}/missing.png`, allowPrivate);
    expect(missing.ok ? "ok" : missing.reason).toBe("http-status");
    expect(missing.ok ? "" : missing.detail).toContain("404");
  });

  test("a redirect is followed, at most three times", async () => {
    const followed = await fetchImage(`${base}/to-red`, allowPrivate);
    expect(followed.ok && followed.url).toBe(`${base}/red.png`);
    const before = seen.length;
    const loop = await fetchImage(`${base}/to-loop`, allowPrivate);
    expect(loop.ok ? "ok" : loop.reason).toBe("redirect");
    expect(seen.length - before).toBe(4); // the first request and three redirects
    const none = await fetchImage(`${base}/to-red`, { ...allowPrivate, maxRedirects: 0 });
    expect(none.ok ? "ok" : none.reason).toBe("redirect");
  });
});

describe("a redirect's target is checked like the first URL", () => {
  // The test server stands in for a public host: only its own address is allowed.
  const onlyTheServer = { addressAllowed: (ip: string) => ip === "127.0.0.1" };

  test("redirects to private addresses are refused without reaching them", async () => {
    const targets = [
      "http://169.254.169.254/latest/meta-data/",
      `http://127.0.0.2:${port}/red.png`,
      `http://[::1]:${port}/red.png`,
      "http://10.1.2.3/red.png",
    ];
    for (const target of targets) {
      const before = seen.length;
      const result = await fetchImage(`${base}/to/${encodeURIComponent(target)}`, { ...onlyTheServer, timeoutMs: 2_000 });
      expect({ target, reason: result.ok ? "ok" : result.reason }).toEqual({ target, reason: "private-address" });
      expect(seen.length - before).toBe(1); // the redirecting request only
    }
    // The same chain to an allowed address is followed.
    const allowed = await fetchImage(`${base}/to/${encodeURIComponent(`${base}/red.png`)}`, onlyTheServer);
    expect(allowed.ok).toBe(true);
  });
});

test("URLs that are not http(s) are bad-url", async () => {
  for (const url of ["file:///etc/passwd", "ftp://example.com/a.png", "not a url", "data:image/png;base64,AAAA", "gopher://x/"]) {
    const result = await fetchImage(url);
    expect({ url, reason: result.ok ? "ok" : result.reason }).toEqual({ url, reason: "bad-url" });
  }
});

test("a name that does not resolve is a network failure, not a throw", async () => {
  const result = await fetchImage("http://no-such-host.invalid/x.png", { timeoutMs: 3_000 });
  expect(result.ok ? "ok" : result.reason).toMatch(/^(network|timeout)$/);
});
