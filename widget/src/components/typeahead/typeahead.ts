import { define } from "../shared/define.ts";
import { SfsTypeaheadOption } from "./typeahead-option.component.ts";
import { SfsTypeahead } from "./typeahead.component.ts";

export { SfsTypeahead, SfsTypeaheadOption };
define("sfs-typeahead-option", SfsTypeaheadOption);
define("sfs-typeahead", SfsTypeahead);

declare global {
  interface HTMLElementTagNameMap {
    "sfs-typeahead": SfsTypeahead;
    "sfs-typeahead-option": SfsTypeaheadOption;
  }
}
