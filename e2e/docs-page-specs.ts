/*
 * The API reference at /docs works offline and shows only our API: loaded with every request beyond this machine
 * refused (and recorded), it renders the operations, asks nothing of another host, and shows none of the reference
 * renderer's own products (an AI agent, a deploy toolbar, a hosted client).
 */
import { assert, waitFor, type Spec } from "./specs.ts";

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Text of the renderer's own buttons and links: none may be on the page. */
const FOREIGN = ["Ask AI", "Deploy", "Open API Client", "Powered by", "Scalar"];

export const docsPageSpecs: Spec[] = [
  {
    name: "docs: /docs renders the API reference with the network beyond this machine blocked, asks no outside host, and shows nothing of Scalar's",
    async run(env) {
      const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
      const outside: string[] = [];
      try {
        await context.route("**", (route) => {
          const url = new URL(route.request().url());
          if (url.protocol === "data:" || url.protocol === "blob:" || LOCAL_HOSTS.has(url.hostname)) return route.continue();
          outside.push(url.href);
          return route.abort("blockedbyclient");
        });
        const page = await context.newPage();
        await page.goto(`${env.base}/docs`, { waitUntil: "networkidle" });
        await waitFor(
          async () => (await page.getByText("Storefront product search").count()) > 0,
          () => "the reference did not render its title",
        );
        await waitFor(
          async () => (await page.getByText("GET /health").count()) + (await page.getByText("/{version}/search").count()) > 0,
          () => "the reference did not render the operations",
        );
        // Fonts, the agent and the toolbar load after the first render: wait until the page is quiet again.
        await page.waitForLoadState("networkidle");
        assert(outside.length === 0, `/docs asked hosts beyond this machine: ${outside.join(", ")}`);
        const text = await page.evaluate(() => document.body.innerText);
        const shown = FOREIGN.filter((foreign) => text.includes(foreign));
        assert(shown.length === 0, `/docs shows the renderer's own ${shown.join(", ")}`);
      } finally {
        await context.close();
      }
    },
  },
];
