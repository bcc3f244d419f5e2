import { define } from "../shared/define.ts";
import { SfsSort } from "./sort.component.ts";

export { SfsSort };
define("sfs-sort", SfsSort);

declare global {
  interface HTMLElementTagNameMap {
    "sfs-sort": SfsSort;
  }
}
