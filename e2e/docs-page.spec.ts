/*
 * The API reference at /docs works offline and shows only our API: loaded with every request beyond this machine
 * refused (and recorded), it renders the operations, asks nothing of another host, and shows none of the reference
 * renderer's own products (an AI agent, a deploy toolbar, a hosted client).
 */
import { expect, LOCAL_HOSTS, test } from "./support/fixtures.ts";

/** Text of the renderer's own buttons and links: none may be on the page. */
const FOREIGN = ["Ask AI", "Deploy", "Open API Client", "Powered by", "Scalar"];

test("docs: /docs renders the API reference with the network beyond this machine blocked, asks no outside host, and shows nothing of Scalar's", async ({
  browser,
  demo,
}) => {
  // A context of its own: the blocked requests are this test's finding, not the shared fixture's.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const outside: string[] = [];
  try {
    await context.route("**", (route) => {
      const url = new URL(route.request().url());
      if (url.protocol === "data:" || url.protocol === "blob:" || LOCAL_HOSTS.has(url.hostname)) return route.continue();
      outside.push(url.href);
      return route.abort("blockedbyclient");
    });
    const page = await context.newPage();
    await page.goto(`${demo.base}/docs`, { waitUntil: "networkidle" });
    await expect(page.getByText("Storefront product search").first(), "the reference's title").toBeVisible();
    await expect(page.getByText("GET /health").or(page.getByText("/{version}/search")).first(), "the reference's operations").toBeVisible();
    // Fonts, the agent and the toolbar load after the first render: wait until the page is quiet again.
    await page.waitForLoadState("networkidle");
    expect(outside, "requests to hosts beyond this machine").toEqual([]);
    // biome-ignore lint/performance/useDomNodeTextContent: the text a reader sees, without hidden nodes
    const text = await page.evaluate(() => document.body.innerText);
    expect(
      FOREIGN.filter((foreign) => text.includes(foreign)),
      "the renderer's own products on the page",
    ).toEqual([]);
  } finally {
    await context.close();
  }
});
