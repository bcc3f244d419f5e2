import { css } from "lit";
import { sharedStyles } from "../shared/shared.styles.ts";

export const productCardStyles = [
  sharedStyles,
  css`
    :host {
      display: block;
      min-width: 0;
    }
    [part~="base"] {
      display: flex;
      flex-direction: column;
      gap: var(--sfs-card-gap, 0.375rem);
      height: 100%;
      padding: var(--sfs-card-padding, 0);
      background: var(--sfs-card-background, transparent);
      border: var(--sfs-card-border, none);
      border-radius: var(--sfs-radius, 0.5rem);
      position: relative;
    }
    [part~="image-link"] {
      display: block;
      position: relative;
      aspect-ratio: var(--sfs-image-aspect-ratio, 3 / 4);
      overflow: hidden;
      border-radius: var(--sfs-radius, 0.5rem);
      background: var(--sfs-color-surface, #f4f4f4);
    }
    [part~="image"] {
      display: block;
      width: 100%;
      height: 100%;
      object-fit: var(--sfs-image-fit, cover);
    }
    [part~="badges"] {
      position: absolute;
      top: var(--sfs-spacing-small, 0.5rem);
      left: var(--sfs-spacing-small, 0.5rem);
      display: flex;
      flex-wrap: wrap;
      gap: 0.25rem;
    }
    [part~="badge"] {
      padding: 0.125rem 0.5rem;
      font-size: var(--sfs-font-size-small, 0.75rem);
      background: var(--sfs-badge-background, var(--sfs-color-accent, #1f1f1f));
      color: var(--sfs-badge-color, var(--sfs-color-on-accent, #ffffff));
      border-radius: var(--sfs-badge-radius, 999px);
    }
    [part~="designer"] {
      margin: 0;
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
      font-size: var(--sfs-font-size-small, 0.8125rem);
      color: var(--sfs-color-muted, #5c5c5c);
      text-transform: var(--sfs-designer-text-transform, none);
    }
    [part~="name"] {
      margin: 0;
      font-size: var(--sfs-font-size, 0.9375rem);
      font-weight: var(--sfs-name-font-weight, 500);
      line-height: 1.3;
      min-height: 2.6em;
      overflow-wrap: anywhere;
    }
    [part~="name-link"] {
      display: -webkit-box;
      -webkit-box-orient: vertical;
      -webkit-line-clamp: var(--sfs-name-lines, 2);
      overflow: hidden;
      color: inherit;
      text-decoration: none;
    }
    [part~="name-link"]:hover {
      text-decoration: underline;
    }
    [part~="price"] {
      margin: 0;
      display: flex;
      flex-wrap: wrap;
      gap: 0.5rem;
      align-items: baseline;
      font-weight: var(--sfs-price-font-weight, 600);
    }
    [part~="sale-price"] {
      color: var(--sfs-color-sale, #b3261e);
    }
    [part~="original-price"] {
      font-weight: 400;
      color: var(--sfs-color-muted, #5c5c5c);
    }
    [part~="rating"] {
      margin: 0;
      font-size: var(--sfs-font-size-small, 0.8125rem);
      color: var(--sfs-color-muted, #5c5c5c);
    }
    [part~="rating-stars"] {
      color: var(--sfs-color-rating, #b7791f);
    }
    [part~="swatches"] {
      display: flex;
      flex-wrap: wrap;
      gap: 0.375rem;
      margin: 0;
      padding: 0;
      list-style: none;
    }
    [part~="swatch"] {
      display: inline-flex;
      align-items: center;
      justify-content: center;
      min-width: var(--sfs-swatch-size, 1.75rem);
      height: var(--sfs-swatch-size, 1.75rem);
      padding: 0;
      overflow: hidden;
      font-size: var(--sfs-font-size-small, 0.6875rem);
      background: var(--sfs-color-background, #ffffff);
      border: 1px solid var(--sfs-color-border, #d0d0d0);
      border-radius: var(--sfs-swatch-radius, 999px);
    }
    [part~="swatch"][aria-pressed="true"] {
      border: 2px solid var(--sfs-color-accent, #1f1f1f);
    }
    [part~="swatch-image"] {
      width: 100%;
      height: 100%;
      object-fit: cover;
    }
    [part~="swatch-label"] {
      padding: 0 0.375rem;
    }
  `,
];
