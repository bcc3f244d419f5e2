import { css, html } from "lit";
import type { Texts } from "@storefront-search/contract";

/**
 * The previous/next buttons of the carousels and the look popup. At an end a button is aria-disabled rather
 * than disabled: a disabled button drops the keyboard focus that just pressed it (to the page, or out of a
 * modal dialog), an aria-disabled one keeps it and ignores the press. `prefix` names the parts
 * (`controls`, `previous`, `next`; `dialog-controls`, … in the popup).
 */
export function pager(prefix: string, controls: string, t: Texts, atStart: boolean, atEnd: boolean, go: (step: 1 | -1) => void) {
  return html`<div part="${prefix}controls" class="pager">
    <button part="${prefix}previous" type="button" aria-controls=${controls} aria-label=${t.previous} aria-disabled=${atStart} @click=${() => atStart || go(-1)}>‹</button>
    <button part="${prefix}next" type="button" aria-controls=${controls} aria-label=${t.next} aria-disabled=${atEnd} @click=${() => atEnd || go(1)}>›</button>
  </div>`;
}

/** The header rows (`class="header"`: a title and buttons), the pager buttons and loading placeholders. */
export const carouselStyles = css`
  :host {
    display: block;
  }
  :host([hidden]) {
    display: none;
  }
  .header {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: var(--sfs-spacing-small, 0.5rem);
  }
  .pager {
    display: flex;
    gap: var(--sfs-spacing-small, 0.5rem);
  }
  .pager button {
    min-width: 2.75rem;
    min-height: 2.75rem;
    border: 1px solid var(--sfs-color-border, #d0d0d0);
    border-radius: var(--sfs-radius, 0.5rem);
    background: var(--sfs-color-background, #ffffff);
  }
  .pager [aria-disabled="true"] {
    opacity: 0.4;
    cursor: default;
  }
  [part~="skeleton"] {
    border-radius: var(--sfs-radius, 0.5rem);
    background: var(--sfs-color-surface, #f4f4f4);
  }
`;
