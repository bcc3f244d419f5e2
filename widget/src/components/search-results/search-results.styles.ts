import { css } from "lit";
import { sharedStyles } from "../shared/shared.styles.ts";

export const searchResultsStyles = [
  sharedStyles,
  css`
    :host {
      display: block;
      font-size: var(--sfs-font-size, 0.9375rem);
      line-height: var(--sfs-line-height, 1.45);
    }
    [part~="base"] {
      display: grid;
      grid-template-columns: minmax(0, 1fr);
      gap: var(--sfs-spacing, 1rem) var(--sfs-spacing-large, 2rem);
      align-items: start;
      position: relative;
    }
    .with-sidebar {
      grid-template-columns: var(--sfs-sidebar-width, 15rem) minmax(0, 1fr);
    }
    [part~="header"] {
      grid-column: 1 / -1;
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: var(--sfs-spacing-small, 0.5rem) var(--sfs-spacing, 1rem);
      min-height: 2.75rem;
    }
    [part~="heading"] {
      /* A row of its own: a count of another width beside it would move what follows (a layout shift). */
      flex-basis: 100%;
      margin: 0;
      font-size: var(--sfs-heading-size, 1.25rem);
      overflow-wrap: anywhere;
    }
    [part~="skip-link"] {
      position: absolute;
      top: 0;
      left: 0;
      z-index: 1;
      padding: 0.5rem 1rem;
      background: var(--sfs-color-background, #ffffff);
      color: var(--sfs-color-accent, #1f1f1f);
    }
    [part~="skip-link"]:not(:focus) {
      width: 1px;
      height: 1px;
      padding: 0;
      overflow: hidden;
      clip-path: inset(50%);
      white-space: nowrap;
    }
    [part~="main"] {
      display: flex;
      flex-direction: column;
      gap: var(--sfs-spacing, 1rem);
      min-width: 0;
    }
    [part~="main"]:focus {
      outline: none;
    }
    [part~="toolbar"] {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: var(--sfs-spacing-small, 0.5rem) var(--sfs-spacing, 1rem);
      margin-inline-start: auto;
    }
    [part~="count"] {
      margin: 0;
      color: var(--sfs-color-muted, #5c5c5c);
    }
    [part~="notice"],
    [part~="did-you-mean"] {
      margin: 0;
      padding: 0.5rem 0.75rem;
      background: var(--sfs-notice-background, var(--sfs-color-surface, #f4f4f4));
      border-radius: var(--sfs-radius-small, 0.375rem);
    }
    [part~="banners"] {
      display: grid;
      gap: var(--sfs-spacing-small, 0.5rem);
      margin-block-end: var(--sfs-spacing, 1rem);
    }
    [part~="banner"] {
      display: grid;
      grid-template-columns: auto 1fr;
      align-items: center;
      column-gap: var(--sfs-spacing, 1rem);
      padding: var(--sfs-spacing-small, 0.5rem) var(--sfs-spacing, 1rem);
      background: var(--sfs-color-surface, #f4f4f4);
      border-radius: var(--sfs-radius, 0.5rem);
      color: var(--sfs-color-text, #1f1f1f);
      text-decoration: none;
    }
    a[part~="banner"]:hover [part~="banner-title"] {
      text-decoration: underline;
    }
    [part~="banner-image"] {
      grid-row: span 2;
      max-height: 4rem;
      max-width: 8rem;
      object-fit: contain;
    }
    [part~="banner-title"] {
      font-weight: 600;
    }
    [part~="banner-text"] {
      color: var(--sfs-color-muted, #5c5c5c);
    }
    [part~="redirecting"] {
      margin: 0;
      color: var(--sfs-color-muted, #5c5c5c);
    }
    [part~="suggestion-link"] {
      color: var(--sfs-color-accent, #1f1f1f);
      font-weight: 600;
    }
    [part~="grid"] {
      display: grid;
      grid-template-columns: repeat(auto-fill, minmax(var(--sfs-card-min-width, 12rem), 1fr));
      gap: var(--sfs-grid-gap, 1.5rem 1rem);
      margin: 0;
      padding: 0;
      list-style: none;
    }
    [part~="grid"] > li {
      display: flex;
    }
    [part~="grid"] sfs-product-card {
      flex: 1;
    }
    :host([narrow]) [part~="grid"] {
      grid-template-columns: repeat(auto-fill, minmax(var(--sfs-card-min-width-narrow, 9rem), 1fr));
    }
    [part~="grid"][aria-busy="true"] {
      opacity: var(--sfs-loading-opacity, 0.6);
    }
    [part~="skeleton"] {
      display: flex;
      flex-direction: column;
      gap: 0.5rem;
    }
    [part~="skeleton-bar"] {
      display: block;
      height: 0.875rem;
      border-radius: var(--sfs-radius-small, 0.375rem);
      background: var(--sfs-skeleton-color, #ececec);
      animation: sfs-pulse 1.2s ease-in-out infinite;
    }
    [part~="skeleton"] [part~="skeleton-bar"]:first-child {
      height: auto;
      aspect-ratio: var(--sfs-image-aspect-ratio, 3 / 4);
    }
    [part~="skeleton-bar"]:last-child {
      width: 60%;
    }
    [part~="facets-skeleton"] {
      display: flex;
      flex-direction: column;
      gap: 1.5rem;
    }
    @keyframes sfs-pulse {
      50% {
        opacity: 0.5;
      }
    }
    @media (prefers-reduced-motion: reduce) {
      [part~="skeleton-bar"] {
        animation: none;
      }
    }
    [part~="empty"],
    [part~="error"] {
      display: flex;
      flex-direction: column;
      align-items: center;
      gap: var(--sfs-spacing, 1rem);
      padding: var(--sfs-spacing-large, 2rem) 0;
      text-align: center;
    }
    [part~="message"],
    [part~="popular-title"] {
      margin: 0;
    }
    [part~="message"] {
      font-size: 1.125rem;
    }
    [part~="popular-title"] {
      font-size: var(--sfs-font-size, 0.9375rem);
    }
    [part~="popular"] {
      display: flex;
      flex-wrap: wrap;
      justify-content: center;
      gap: var(--sfs-spacing-small, 0.5rem);
      margin: 0;
      padding: 0;
      list-style: none;
    }
    [part~="popular-link"] {
      display: inline-block;
      padding: 0.375rem 0.875rem;
      border: 1px solid var(--sfs-color-border, #d0d0d0);
      border-radius: var(--sfs-chip-radius, 999px);
      color: inherit;
      text-decoration: none;
    }
    [part~="retry-button"],
    [part~="filter-button"],
    [part~="drawer-close"],
    [part~="clear-filters"],
    [part~="drawer-apply"] {
      min-height: 2.75rem;
      padding: 0.25rem 1rem;
      background: var(--sfs-color-background, #ffffff);
      border: 1px solid var(--sfs-color-border, #d0d0d0);
      border-radius: var(--sfs-radius-small, 0.375rem);
    }
    [part~="filter-count"] {
      display: inline-block;
      min-width: 1.5em;
      margin-left: 0.25rem;
      padding: 0 0.375rem;
      border-radius: 999px;
      background: var(--sfs-color-accent, #1f1f1f);
      color: var(--sfs-color-on-accent, #ffffff);
      font-size: var(--sfs-font-size-small, 0.8125rem);
    }
    [part~="drawer-footer"] {
      position: sticky;
      bottom: calc(-1 * var(--sfs-spacing, 1rem));
      margin: var(--sfs-spacing, 1rem) calc(-1 * var(--sfs-spacing, 1rem)) calc(-1 * var(--sfs-spacing, 1rem));
      padding: var(--sfs-spacing, 1rem);
      background: var(--sfs-color-background, #ffffff);
      border-top: 1px solid var(--sfs-color-border, #d0d0d0);
    }
    [part~="drawer-apply"] {
      width: 100%;
    }
    [part~="retry-button"],
    [part~="drawer-apply"] {
      background: var(--sfs-color-accent, #1f1f1f);
      border-color: var(--sfs-color-accent, #1f1f1f);
      color: var(--sfs-color-on-accent, #ffffff);
    }
    [part~="drawer"] {
      width: min(var(--sfs-drawer-width, 22rem), 90vw);
      max-width: none;
      height: 100%;
      max-height: none;
      margin: 0 auto 0 0;
      padding: var(--sfs-spacing, 1rem);
      background: var(--sfs-color-background, #ffffff);
      color: inherit;
      border: none;
      overflow-y: auto;
    }
    [part~="drawer"]::backdrop {
      background: var(--sfs-backdrop, rgb(0 0 0 / 0.4));
    }
    [part~="drawer-header"] {
      display: flex;
      align-items: center;
      justify-content: space-between;
      margin-bottom: var(--sfs-spacing, 1rem);
    }
    [part~="drawer-title"] {
      margin: 0;
      font-size: 1.125rem;
    }
  `,
];
