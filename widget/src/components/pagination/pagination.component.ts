import { html, LitElement, nothing } from "lit";
import { DEFAULT_TEXTS, type Texts } from "@storefront-search/contract";
import { fillText } from "../../config/resolve-config.ts";
import type { SfsPageChangeEvent } from "../../events/sfs-page-change.ts";
import { emit } from "../shared/emit.ts";
import { paginationStyles } from "./pagination.styles.ts";

export type { SfsPageChangeEvent };

/** Pages to offer: the first, the last, and two either side of the current one; null marks a gap. */
export function pageWindow(page: number, last: number): (number | null)[] {
  const pages: (number | null)[] = [];
  for (let p = 1; p <= last; p++) {
    if (p === 1 || p === last || Math.abs(p - page) <= 2) pages.push(p);
    else if (pages[pages.length - 1] !== null) pages.push(null);
  }
  return pages;
}

/**
 * Previous/next and page number buttons.
 *
 * @csspart base - The `<nav>`.
 * @csspart list - The list of buttons.
 * @csspart button - Every button.
 * @csspart previous - The "previous" button.
 * @csspart next - The "next" button.
 * @csspart page - A page number button.
 * @csspart current - The current page's button (`aria-current="page"`).
 * @csspart gap - The ellipsis between distant pages.
 *
 * @cssproperty --sfs-color-accent - The current page.
 * @cssproperty --sfs-color-border - Button borders.
 *
 * @event sfs-page-change - Another page was chosen: `{ page }`.
 */
export class SfsPagination extends LitElement {
  static override styles = paginationStyles;

  static override properties = {
    page: { type: Number },
    pageCount: { type: Number, attribute: "page-count" },
    texts: { attribute: false },
  };

  declare page: number;
  declare pageCount: number;
  declare texts: Texts;

  constructor() {
    super();
    this.page = 1;
    this.pageCount = 1;
    this.texts = DEFAULT_TEXTS;
  }

  private go(page: number) {
    if (page < 1 || page > this.pageCount || page === this.page) return;
    emit(this, "sfs-page-change", { page });
  }

  override render() {
    if (this.pageCount < 2) return nothing;
    const t = this.texts;
    return html`<nav part="base" aria-label=${t.pagination}>
      <ul part="list">
        <li>
          <button part="button previous" type="button" ?disabled=${this.page <= 1} @click=${() => this.go(this.page - 1)}>${t.previous}</button>
        </li>
        ${pageWindow(this.page, this.pageCount).map((p) =>
          p === null
            ? html`<li part="gap" aria-hidden="true">…</li>`
            : html`<li>
                <button
                  part=${p === this.page ? "button page current" : "button page"}
                  type="button"
                  aria-label=${fillText(t.page, { page: p })}
                  aria-current=${p === this.page ? "page" : nothing}
                  @click=${() => this.go(p)}
                >
                  ${p}
                </button>
              </li>`,
        )}
        <li>
          <button part="button next" type="button" ?disabled=${this.page >= this.pageCount} @click=${() => this.go(this.page + 1)}>${t.next}</button>
        </li>
      </ul>
    </nav>`;
  }
}
