import { html, LitElement, nothing, render, type PropertyValues } from "lit";
import { TypeaheadController, type TypeaheadOption } from "../../core/typeahead-controller.ts";
import type { WidgetContext } from "../../core/widget-context.ts";
import { safeUrl } from "../../core/rule-content.ts";
import type { SfsSuggestionSelectEvent } from "../../events/sfs-suggestion-select.ts";
import { fillText } from "../../config/resolve-config.ts";
import { emit } from "../shared/emit.ts";
import { typeaheadStyles } from "./typeahead.styles.ts";

export type { SfsSuggestionSelectEvent };

let instances = 0;

const SLOT: Record<TypeaheadOption["kind"], string> = {
  recent: "recent",
  popular: "popular",
  suggestion: "suggestions",
  designer: "designers",
  product: "products",
};

/**
 * The typeahead popup of the store's own search input. The input becomes an ARIA combobox (role, aria-expanded,
 * aria-controls, aria-activedescendant); this element is its listbox, placed under the input. The frame, the
 * group labels and the styles are in this element's shadow root; the options (`<sfs-typeahead-option>`) are its
 * light-DOM children, slotted into their group, because aria-activedescendant and aria-controls can only point
 * at elements in the input's own tree.
 *
 * @csspart base - The popup frame.
 * @csspart group - One group of options (suggestions, brands, products).
 * @csspart group-label - The group's heading.
 * @csspart status - "Searching…" before the first answer, or that nothing matched (`role="status"`).
 *
 * @cssproperty --sfs-z-index - Stacking order of the popup.
 * @cssproperty --sfs-typeahead-min-width - Narrowest popup (it is at least as wide as the input).
 * @cssproperty --sfs-typeahead-max-height - Tallest popup before it scrolls.
 * @cssproperty --sfs-typeahead-offset - Gap between the input and the popup.
 * @cssproperty --sfs-shadow - The popup's shadow.
 * @cssproperty --sfs-typeahead-anchor-top - Set by the widget: where the input ends in the viewport (do not set).
 * @cssproperty --sfs-typeahead-anchor-left - Set by the widget.
 * @cssproperty --sfs-typeahead-anchor-width - Set by the widget: the input's width.
 *
 * The popup is a manual popover where the browser has them (the top layer: no store's overflow or z-index can
 * clip it), else fixed; either way it is placed at the input's place in the viewport, again on scroll and resize.
 *
 * @event sfs-suggestion-select - An option was chosen: `{ kind, label, query }`; preventDefault() keeps the shopper
 * on the page.
 */
export class SfsTypeahead extends LitElement {
  static override styles = typeaheadStyles;

  static override properties = {
    input: { attribute: false },
    context: { attribute: false },
  };

  declare input: HTMLInputElement | null;
  declare context: WidgetContext | null;
  controller: TypeaheadController | null = null;
  private readonly reposition = () => {
    if (this.controller?.open && this.input) this.placeUnder(this.input);
  };

  constructor() {
    super();
    this.input = null;
    this.context = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (!this.id) this.id = `sfs-typeahead-${++instances}`;
    this.hidden = true;
    if ("showPopover" in this) this.popover = "manual";
    const view = this.ownerDocument.defaultView;
    view?.addEventListener("resize", this.reposition);
    view?.addEventListener("scroll", this.reposition, { capture: true, passive: true });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    const view = this.ownerDocument.defaultView;
    view?.removeEventListener("resize", this.reposition);
    view?.removeEventListener("scroll", this.reposition, { capture: true });
    this.releaseInput(this.input);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (!this.controller && this.context) this.controller = this.createController(this.context);
    if (changed.has("input")) {
      this.releaseInput(changed.get("input") ?? null);
      this.controller?.attach(this.input);
      this.input?.setAttribute("role", "combobox");
      this.input?.setAttribute("aria-autocomplete", "list");
      this.input?.setAttribute("aria-controls", this.id);
      this.input?.setAttribute("autocomplete", "off");
    }
  }

  private createController(ctx: WidgetContext): TypeaheadController {
    return new TypeaheadController(this, {
      suggestions: (query, limit, signal) => ctx.client.suggestions(query, limit, signal),
      products: (query, limit, signal) =>
        ctx.client.search({ query, pageSize: limit, spellEnabled: false, typeahead: true, ...ctx.ids() }, signal),
      onSubmit: (query) => ctx.showResults(query),
      idle: () => {
        const recent = ctx.recentQueries?.() ?? [];
        const popular = ctx.config.popularQueries.filter((q) => !recent.some((r) => r.toLowerCase() === q.toLowerCase()));
        return [
          ...recent.map((label) => ({ kind: "recent" as const, label, count: 0 })),
          ...popular.slice(0, 6).map((label) => ({ kind: "popular" as const, label, count: 0 })),
        ];
      },
      onRedirect: (url) => {
        const to = safeUrl(url, ctx.urlEnv.location.href);
        if (to) ctx.openUrl(to);
      },
      onSelect: (option, query) => {
        if (!emit(this, "sfs-suggestion-select", { kind: option.kind, label: option.label, query })) return;
        if (option.kind === "product") {
          const p = option.product;
          const url = p.colors?.[p.defaultColorId ?? ""]?.productUrl ?? p.url;
          if (url) ctx.openUrl(url);
          return;
        }
        if (this.input) this.input.value = option.label;
        ctx.showResults(option.label);
      },
      track: (type, data) => ctx.track(type, data),
      locale: ctx.locale,
    });
  }

  private releaseInput(input: HTMLInputElement | null) {
    if (!input) return;
    this.controller?.detach();
    for (const name of ["role", "aria-autocomplete", "aria-controls", "aria-expanded", "aria-activedescendant"])
      input.removeAttribute(name);
  }

  private optionId(index: number): string {
    return `${this.id}-option-${index}`;
  }

  protected override update(changed: PropertyValues<this>): void {
    super.update(changed);
    // The options are light-DOM children (see the class comment), rendered after the frame.
    render(this.optionsTemplate(), this, { host: this });
  }

  protected override updated(): void {
    const c = this.controller;
    const open = !!c?.open;
    const listed = open && c.options.length > 0;
    this.hidden = !open;
    if (this.popover) this.togglePopover(open);
    // A listbox while there are options; otherwise the popup is only its status line.
    if (listed) this.setAttribute("role", "listbox");
    else this.removeAttribute("role");
    const texts = this.context?.config.texts;
    if (texts) this.setAttribute("aria-label", texts.suggestions);
    const input = this.input;
    if (!input) return;
    input.setAttribute("aria-expanded", listed ? "true" : "false");
    if (listed && c.activeIndex >= 0) input.setAttribute("aria-activedescendant", this.optionId(c.activeIndex));
    else input.removeAttribute("aria-activedescendant");
    if (open) this.placeUnder(input);
    if (listed && c.activeIndex >= 0)
      this.querySelector(`#${CSS.escape(this.optionId(c.activeIndex))}`)?.scrollIntoView?.({ block: "nearest" });
  }

  private placeUnder(input: HTMLElement) {
    const rect = input.getBoundingClientRect();
    this.style.setProperty("--sfs-typeahead-anchor-top", `${rect.bottom}px`);
    this.style.setProperty("--sfs-typeahead-anchor-left", `${rect.left}px`);
    this.style.setProperty("--sfs-typeahead-anchor-width", `${rect.width}px`);
  }

  override render() {
    const c = this.controller;
    const t = this.context?.config.texts;
    if (!c || !t) return nothing;
    const groups = [
      { kind: "recent", label: t.recent },
      { kind: "popular", label: t.popular },
      { kind: "suggestion", label: t.suggestions },
      { kind: "designer", label: t.designers },
      { kind: "product", label: t.products },
    ] as const;
    const status = c.options.length ? "" : c.loading ? t.searching : fillText(t.noSuggestions, { query: c.answered });
    return html`<div part="base">
      ${status ? html`<div part="status" role="status">${status}</div>` : nothing}
      ${groups
        .filter((g) => c.options.some((o) => o.kind === g.kind))
        .map(
          (g) => html`<div part="group" role="group" aria-label=${g.label}>
            <div part="group-label" aria-hidden="true">${g.label}</div>
            <slot name=${SLOT[g.kind]}></slot>
          </div>`,
        )}
    </div>`;
  }

  private optionsTemplate() {
    const c = this.controller;
    if (!c) return nothing;
    const priceFormat = this.context?.priceFormat;
    // Options are focusable outside the tab order: the popup, which can scroll, is then seen to hold what the
    // keyboard reaches (from the input, through aria-activedescendant).
    return c.options.map(
      (option, i) => html`<sfs-typeahead-option
        id=${this.optionId(i)}
        role="option"
        tabindex="-1"
        slot=${SLOT[option.kind]}
        aria-selected=${i === c.activeIndex ? "true" : "false"}
        .option=${option}
        .query=${c.answered}
        .priceFormat=${priceFormat}
        @pointerdown=${(e: Event) => e.preventDefault()}
        @mousedown=${(e: Event) => e.preventDefault()}
        @click=${() => c.select(i)}
      ></sfs-typeahead-option>`,
    );
  }
}
