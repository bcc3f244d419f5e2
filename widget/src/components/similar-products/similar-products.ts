import { define } from "../shared/define.ts";
import { SfsSimilarProducts } from "./similar-products.component.ts";

export { SfsSimilarProducts };
define("sfs-similar-products", SfsSimilarProducts);

declare global {
  interface HTMLElementTagNameMap {
    "sfs-similar-products": SfsSimilarProducts;
  }
}
