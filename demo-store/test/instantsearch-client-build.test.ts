import { afterAll, beforeAll, expect, test } from "bun:test";
import { appendFileSync, cpSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../server/test/support/test-server.ts";
import { buildInstantSearchClientIfStale, CLIENT_DIR } from "../../instantsearch-client/scripts/build-if-stale.ts";

/*
 * The InstantSearch client as the server serves it (`npm start`, `npm run server`): built when missing, one ES
 * module with nothing to import, within its size budget, exporting what a page imports. On a copy of the
 * workspace in a temp folder: the real instantsearch-client/dist is read by other suites meanwhile.
 */

const ROOT = join(CLIENT_DIR, "..");
const outer = tempDir("sfs-isclient-");
const client = join(outer, "instantsearch-client");
const builtModule = join(client, "dist/instantsearch-client.js");

beforeAll(() => {
  for (const part of ["src", "scripts", "vite.config.ts", "package.json"])
    cpSync(join(CLIENT_DIR, part), join(client, part), { recursive: true });
  cpSync(join(ROOT, "scripts"), join(outer, "scripts"), { recursive: true });
  cpSync(join(ROOT, "contract/src"), join(outer, "contract/src"), { recursive: true });
  symlinkSync(join(ROOT, "node_modules"), join(outer, "node_modules"));
});
afterAll(() => rmSync(outer, { recursive: true, force: true }));

test("built when missing: one self-contained ES module within 6 KB gzipped, exporting the client; not built again", async () => {
  const result = await buildInstantSearchClientIfStale(client);
  expect(result).toMatchObject({ built: true, reason: "dist/instantsearch-client.js is missing" });
  expect(result.output).toMatch(/instantsearch-client\.js: .* gzipped \(budget 6\.00 KB gzipped\)/);
  const code = readFileSync(builtModule, "utf8");
  // A page imports it from the service's URL: an import of its own would be a second request, or a broken one.
  expect(code).not.toMatch(/\bimport\s*[{*\w"']|\bimport\(/);
  const built = (await import(builtModule)) as Record<string, unknown>;
  for (const name of ["createSearchClient", "SearchRequestError", "UnsupportedSearchError"]) expect(typeof built[name]).toBe("function");
  const searchClient = (built.createSearchClient as (o: object) => { search: unknown })({
    host: "https://search.example",
    storeId: "s",
    searchKey: "k",
  });
  expect(typeof searchClient.search).toBe("function");
  // The insights client beside it, within its own budget, self-contained too.
  expect(result.output).toMatch(/instantsearch-insights\.js: .* gzipped \(budget 3\.00 KB gzipped\)/);
  const insightsModule = join(client, "dist/instantsearch-insights.js");
  expect(readFileSync(insightsModule, "utf8")).not.toMatch(/\bimport\s*[{*\w"']|\bimport\(/);
  expect(typeof ((await import(insightsModule)) as Record<string, unknown>).createInsightsClient).toBe("function");
  expect(await buildInstantSearchClientIfStale(client)).toMatchObject({ built: false, reason: null });
}, 60_000);

test("rebuilt when the contract it bundles changed (its limits and facet syntax are compiled in)", async () => {
  await buildInstantSearchClientIfStale(client);
  appendFileSync(join(outer, "contract/src/multi-search.ts"), "\n// a change\n");
  expect(await buildInstantSearchClientIfStale(client)).toMatchObject({ built: true, reason: "its sources changed" });
}, 60_000);
