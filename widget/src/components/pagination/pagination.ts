import { define } from "../shared/define.ts";
import { SfsPagination } from "./pagination.component.ts";

export { SfsPagination };
define("sfs-pagination", SfsPagination);

declare global {
  interface HTMLElementTagNameMap {
    "sfs-pagination": SfsPagination;
  }
}
