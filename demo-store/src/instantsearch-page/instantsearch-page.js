/*
 * The demo store's InstantSearch.js page, written as a store without a build step writes one: InstantSearch.js and
 * Autocomplete from their UMD builds (the globals `instantsearch` and `@algolia/autocomplete-js`), the service's
 * client imported from the URL the service serves it at, and widgets configured as for any Algolia index. One
 * client serves both. The store id and search key come from the page's <main> (the demo store's own keys).
 */
import { createSearchClient } from "/widget/v1/instantsearch-client.js";

const { storeId, searchKey } = document.getElementById("instantsearch").dataset;
const {
  configure,
  dynamicWidgets,
  hierarchicalMenu,
  hits,
  pagination,
  panel,
  rangeInput,
  refinementList,
  searchBox,
  sortBy,
  stats,
} = instantsearch.widgets;

const rupees = (n) => `₹${Number(n).toLocaleString("en-IN")}`;

const searchClient = createSearchClient({ host: location.origin, storeId, searchKey });
const search = instantsearch({ indexName: "products", searchClient });

search.addWidgets([
  configure({ hitsPerPage: 12 }),
  searchBox({ container: "#searchbox", placeholder: "Search products" }),
  stats({ container: "#stats" }),
  sortBy({
    container: "#sort",
    items: [
      { label: "Relevance", value: "products" },
      { label: "Price, low to high", value: "products:pricea" },
      { label: "Price, high to low", value: "products:priced" },
      { label: "Newest", value: "products:new" },
    ],
  }),
  hierarchicalMenu({ container: "#categories", attributes: ["categories.lvl0", "categories.lvl1", "categories.lvl2"] }),
  refinementList({ container: "#brands", attribute: "brand", operator: "or", limit: 8 }),
  rangeInput({ container: "#price", attribute: "price" }),
  dynamicWidgets({
    container: "#more-facets",
    widgets: [
      (container) => panel({ templates: { header: () => "Gender" } })(refinementList)({ container, attribute: "gender" }),
      (container) => panel({ templates: { header: () => "Colour" } })(refinementList)({ container, attribute: "color", limit: 8 }),
    ],
    // The store's facet order decides which of these show; until the answer carries one, both do.
    transformItems: (attributes) => (attributes.length > 0 ? attributes : ["gender", "color"]),
  }),
  hits({
    container: "#hits",
    templates: {
      item: (hit, { html, components }) => html`<article data-id=${hit.objectID}>
        <div class="hit-brand">${hit.brand ?? ""}</div>
        <a href=${`/products/${encodeURIComponent(hit.objectID)}`}>${components.Highlight({ hit, attribute: "name" })}</a>
        <div class="hit-price">${hit.price ? rupees(hit.price.min) : ""}</div>
      </article>`,
      empty: (results, { html }) => html`<p>No products for “${results.query}”.</p>`,
    },
  }),
  pagination({ container: "#pagination" }),
]);

search.start();

const { autocomplete, getAlgoliaResults } = window["@algolia/autocomplete-js"];
autocomplete({
  container: "#autocomplete",
  placeholder: "Quick search",
  // Without Autocomplete's theme stylesheet its media query for the full-screen (detached) mode is empty, which
  // matches every screen: the box stays in the header.
  detachedMediaQuery: "none",
  getSources: ({ query }) => [
    {
      sourceId: "products",
      getItems: () => getAlgoliaResults({ searchClient, queries: [{ indexName: "products", params: { query, hitsPerPage: 5 } }] }),
      getItemUrl: ({ item }) => `/products/${encodeURIComponent(item.objectID)}`,
      templates: {
        item: ({ item, html, components }) =>
          html`<a class="aa-ItemLink" data-id=${item.objectID} href=${`/products/${encodeURIComponent(item.objectID)}`}>
            ${components.Highlight({ hit: item, attribute: "name" })} <span class="hit-brand">${item.brand ?? ""}</span>
          </a>`,
      },
    },
  ],
});
// Two search landmarks on one page need names of their own: InstantSearch's box is the page's search.
document.querySelector("#autocomplete form")?.setAttribute("aria-label", "Quick search");

