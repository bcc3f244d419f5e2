import type { Banner, SearchResponse } from "@storefront-search/contract";
import type { AlgoliaSearchResult, RenderingBanner, RenderingContent, StorefrontSearchInfo } from "./algolia-shapes.ts";
import { attributeOf } from "./attributes.ts";

/*
 * What a search answer tells the page besides products, in the fields InstantSearch reads: the rules' custom
 * data as `userData` (queryRuleCustomData shows it), banners with an image as `renderingContent.widgets.banners`
 * (the hits widget shows the first), a redirect rule as `renderingContent.redirect`, and the facets in the
 * order the store's `facets` setting gives them (the answer's own order) as `renderingContent.facetOrdering`,
 * which dynamicWidgets follows. Spell suggestions and the fallback have no Algolia field: they go in
 * `storefrontSearch`, which InstantSearch copies onto the results a connector renders.
 */

type RenderedFields = Pick<AlgoliaSearchResult, "userData" | "renderingContent" | "storefrontSearch">;

const isImageBanner = (entry: Record<string, unknown>): entry is Record<string, unknown> & Banner =>
  entry.type === "banner" && typeof entry.image === "string" && entry.image !== "";

function toBanner(banner: Banner): RenderingBanner {
  return {
    image: { urls: [{ url: banner.image! }], title: banner.title },
    ...(banner.link ? { link: { url: banner.link, target: "_self" } } : {}),
  };
}

function searchInfo(answer: SearchResponse): StorefrontSearchInfo | null {
  const info: StorefrontSearchInfo = {};
  if (answer.spellSuggestions?.length) info.spellSuggestions = answer.spellSuggestions;
  if (answer.fallback) info.fallback = true;
  if (answer.recovered) info.recovered = true;
  if ((answer.fallback || answer.typedQuery !== undefined) && answer.query !== undefined) info.searchedQuery = answer.query;
  if (answer.typedQuery !== undefined) info.typedQuery = answer.typedQuery;
  return Object.keys(info).length ? info : null;
}

export function renderedFields(answer: SearchResponse): RenderedFields {
  const rendering: RenderingContent = {};
  if (answer.facets?.length) rendering.facetOrdering = { facets: { order: answer.facets.map((f) => attributeOf(f.key)) } };
  if (answer.redirect) rendering.redirect = { url: answer.redirect };
  const banners = (answer.userData ?? []).filter(isImageBanner).map(toBanner);
  if (banners.length) rendering.widgets = { banners };
  const info = searchInfo(answer);
  return {
    ...(answer.userData?.length ? { userData: answer.userData } : {}),
    ...(Object.keys(rendering).length ? { renderingContent: rendering } : {}),
    ...(info ? { storefrontSearch: info } : {}),
  };
}
