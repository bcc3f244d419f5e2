import { define } from "../shared/define.ts";
import { SfsFacets } from "./facets.component.ts";

export { SfsFacets };
define("sfs-facets", SfsFacets);

declare global {
  interface HTMLElementTagNameMap {
    "sfs-facets": SfsFacets;
  }
}
