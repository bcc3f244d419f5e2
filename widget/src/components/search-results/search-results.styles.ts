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
      grid-template-columns: var(--sfs-sidebar-width, 15rem) minmax(0, 1fr);
      gap: var(--sfs-spacing-large, 2rem);
      align-items: start;
    }
    :host([narrow]) [part~="base"] {
      grid-template-columns: minmax(0, 1fr);
    }
    [part~="main"] {
      display: flex;
      flex-direction: column;
      gap: var(--sfs-spacing, 1rem);
      min-width: 0;
    }
    [part~="toolbar"] {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      justify-content: space-between;
      gap: var(--sfs-spacing-small, 0.5rem);
    }
    [part~="count"] {
      margin: 0;
      font-weight: 600;
    }
    [part~="notice"],
    [part~="did-you-mean"] {
      margin: 0;
      padding: 0.5rem 0.75rem;
      background: var(--sfs-notice-background, var(--sfs-color-surface, #f4f4f4));
      border-radius: var(--sfs-radius-small, 0.375rem);
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
    [part~="skeleton"] span {
      display: block;
      height: 0.875rem;
      border-radius: var(--sfs-radius-small, 0.375rem);
      background: var(--sfs-skeleton-color, #ececec);
      animation: sfs-pulse 1.2s ease-in-out infinite;
    }
    [part~="skeleton"] span:first-child {
      height: auto;
      aspect-ratio: var(--sfs-image-aspect-ratio, 3 / 4);
    }
    [part~="skeleton"] span:last-child {
      width: 60%;
    }
    @keyframes sfs-pulse {
      50% {
        opacity: 0.5;
      }
    }
    @media (prefers-reduced-motion: reduce) {
      [part~="skeleton"] span {
        animation: none;
      }
    }
    [part~="empty"],
    [part~="error"] {
      padding: var(--sfs-spacing-large, 2rem) 0;
      text-align: center;
    }
    [part~="button"],
    [part~="retry-button"],
    [part~="filter-button"],
    [part~="drawer-close"] {
      min-height: 2.25rem;
      padding: 0.25rem 1rem;
      background: var(--sfs-color-background, #ffffff);
      border: 1px solid var(--sfs-color-border, #d0d0d0);
      border-radius: var(--sfs-radius-small, 0.375rem);
    }
    [part~="retry-button"] {
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
