import { define } from "../shared/define.ts";
import { SfsCompleteTheLook } from "./complete-the-look.component.ts";

export { SfsCompleteTheLook };
define("sfs-complete-the-look", SfsCompleteTheLook);

declare global {
  interface HTMLElementTagNameMap {
    "sfs-complete-the-look": SfsCompleteTheLook;
  }
}
