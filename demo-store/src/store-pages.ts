/*
 * The pages a store uses, as `npm start` lists them under the keys: where each is and which key it asks for. The
 * staff pages sign in with the store id and the admin key, which they keep in the tab's sessionStorage only.
 */

const PAGES: { path: string; what: string; key: string }[] = [
  { path: "/", what: "the demo store front (shoppers)", key: "none (its pages carry the search and analytics keys)" },
  { path: "/instantsearch", what: "the same store searched with InstantSearch.js and our client", key: "none (it carries the search key)" },
  { path: "/reports", what: "search reports (store staff)", key: "store id and admin key" },
  { path: "/merchandising", what: "query rules and synonyms (store staff)", key: "store id and admin key" },
  { path: "/experiments", what: "A/B tests and results (store staff)", key: "store id and admin key" },
  { path: "/theme", what: "the search widget's look (store staff)", key: "store id and admin key" },
  { path: "/docs", what: "API reference, works offline", key: "none to read (a test request takes the key its call needs)" },
  { path: "/health", what: "liveness and enrichment progress", key: "none" },
];

export function storePages(origin: string): string {
  const width = Math.max(...PAGES.map((p) => origin.length + p.path.length));
  const what = Math.max(...PAGES.map((p) => p.what.length));
  const row = (url: string, page: string, key: string) => `  ${url.padEnd(width)}  ${page.padEnd(what)}  ${key}`;
  return ["Pages", row("", "", "key it asks for"), ...PAGES.map((p) => row(origin + p.path, p.what, p.key))].join("\n");
}
