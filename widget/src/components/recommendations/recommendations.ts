import { define } from "../shared/define.ts";
import { SfsRecommendations } from "./recommendations.component.ts";

export { SfsRecommendations };
define("sfs-recommendations", SfsRecommendations);

declare global {
  interface HTMLElementTagNameMap {
    "sfs-recommendations": SfsRecommendations;
  }
}
