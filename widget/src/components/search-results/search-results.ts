import { define } from "../shared/define.ts";
import { SfsSearchResults } from "./search-results.component.ts";

export { SfsSearchResults };
define("sfs-search-results", SfsSearchResults);

declare global {
  interface HTMLElementTagNameMap {
    "sfs-search-results": SfsSearchResults;
  }
}
