import { jsonArray, jsonWithFragments } from "../../http/json-with-fragments.ts";
import { facetsJson } from "./facets-json.ts";
import type { SearchResponse } from "./search-service.ts";

/** A search response as sent: its stored product JSON joined as it is, its facets written by facetsJson. */
export function searchAnswer({ products, facets, ...rest }: SearchResponse): Response {
  return jsonWithFragments({ products: jsonArray(products), facets: facetsJson(facets) }, rest);
}
