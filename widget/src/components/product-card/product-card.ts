import { define } from "../shared/define.ts";
import { SfsProductCard } from "./product-card.component.ts";

export { SfsProductCard };
define("sfs-product-card", SfsProductCard);

declare global {
  interface HTMLElementTagNameMap {
    "sfs-product-card": SfsProductCard;
  }
}
