/*
 * The head script. Embedded as
 *   <script async src="https://search.example/widget/v1/widget.js" data-store-id="…" data-search-key="pk_search_…"
 *           data-analytics-key="pk_analytics_…"></script>
 * with optional data-api (the service's base URL; default: this script's origin) and data-target (the id of the
 * results div; default: the store's configuration).
 */
import "./components/product-card/product-card.ts";
import "./components/facets/facets.ts";
import "./components/sort/sort.ts";
import "./components/pagination/pagination.ts";
import "./components/search-results/search-results.ts";
import "./components/typeahead/typeahead.ts";
import "./components/similar-products/similar-products.ts";
import "./components/complete-the-look/complete-the-look.ts";
import "./components/recommendations/recommendations.ts";
import { readScriptSettings, startWidget } from "./widget-app.ts";

// currentScript is only set while this file is first evaluated (async scripts too), so it is read right away.
const script =
  (document.currentScript as HTMLScriptElement | null) ?? document.querySelector<HTMLScriptElement>("script[data-store-id][src*='widget']");

const LOADED = Symbol.for("storefront-search.widget");
const registry = window as unknown as Record<symbol, boolean>;
// A second copy of the script on the page (a theme and an app both adding it) does nothing.
if (!registry[LOADED]) {
  registry[LOADED] = true;
  const settings = readScriptSettings(script);
  if (settings) {
    startWidget(settings).catch((error: unknown) => console.warn("[storefront-search] the widget could not start", error));
  }
}
