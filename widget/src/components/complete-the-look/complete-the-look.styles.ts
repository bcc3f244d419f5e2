import { css } from "lit";
import { carouselStyles } from "../shared/pager.ts";
import { sharedStyles } from "../shared/shared.styles.ts";

export const completeTheLookStyles = [
  sharedStyles,
  carouselStyles,
  css`
    [part~="title"],
    [part~="dialog-title"] {
      margin: 0 0 var(--sfs-spacing-small, 0.5rem);
      font-size: var(--sfs-ctl-title-size, 1.125rem);
    }
    [part~="list"] {
      display: grid;
      grid-template-columns: repeat(var(--per-page, 1), minmax(0, 1fr));
      gap: var(--sfs-grid-gap, 1rem);
    }
    ul {
      margin: 0;
      padding: 0;
      list-style: none;
    }
    [part~="look"] {
      display: flex;
      flex-direction: column;
      gap: 0.75rem;
      padding: var(--sfs-spacing, 1rem);
      border: var(--sfs-ctl-look-border, 1px solid var(--sfs-color-border, #d0d0d0));
      border-radius: var(--sfs-radius, 0.5rem);
      background: var(--sfs-ctl-look-background, transparent);
    }
    [part~="look-products"],
    [part~="dialog-list"] {
      display: grid;
      gap: 0.75rem;
    }
    [part~="skeleton"] {
      min-height: 20rem;
    }
    sfs-product-card::part(base) {
      display: grid;
      grid-template-columns: var(--sfs-ctl-image-width, 4rem) minmax(0, 1fr);
      align-content: start;
      gap: 0.125rem 0.75rem;
    }
    sfs-product-card::part(image-link) {
      grid-row: span 3;
    }
    sfs-product-card::part(rating),
    sfs-product-card::part(swatches),
    sfs-product-card::part(badges) {
      display: none;
    }
    [part~="this-item"] {
      grid-column: 1 / -1;
      font-size: var(--sfs-font-size-small, 0.75rem);
      color: var(--sfs-color-muted, #5c5c5c);
    }
    [part~="view-look"],
    [part~="add-to-cart"] {
      min-height: 2.75rem;
      padding: 0.5rem 1rem;
      border: 1px solid var(--sfs-color-accent, #1f1f1f);
      border-radius: var(--sfs-radius, 0.5rem);
      background: var(--sfs-color-accent, #1f1f1f);
      color: var(--sfs-color-on-accent, #fff);
    }
    [part~="view-look"] {
      margin-top: auto;
    }
    [part~="dialog"] {
      width: min(var(--sfs-ctl-dialog-width, 32rem), calc(100vw - 2rem));
      max-height: calc(100vh - 2rem);
      padding: 0;
      border: none;
      border-radius: var(--sfs-radius, 0.5rem);
      background: var(--sfs-color-background, #fff);
      color: inherit;
    }
    [part~="dialog"]::backdrop {
      background: var(--sfs-backdrop, rgb(0 0 0 / 0.4));
    }
    [part~="dialog-body"] {
      padding: var(--sfs-spacing, 1rem);
    }
    [part~="close"] {
      min-width: 2.75rem;
      min-height: 2.75rem;
      border: none;
      background: none;
      font-size: 1.5rem;
    }
    [part~="dialog-list"] [part~="product"] {
      display: grid;
      grid-template-columns: minmax(0, 1fr) auto;
      align-items: center;
      gap: 0.5rem;
    }
    [part~="dialog-controls"] {
      justify-content: center;
      margin-top: var(--sfs-spacing, 1rem);
    }
  `,
];
