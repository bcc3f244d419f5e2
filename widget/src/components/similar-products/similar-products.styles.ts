import { css } from "lit";
import { sharedStyles } from "../shared/shared.styles.ts";

export const similarProductsStyles = [
  sharedStyles,
  css`
    :host {
      display: block;
    }
    :host([hidden]) {
      display: none;
    }
    [part~="header"] {
      display: flex;
      align-items: center;
      justify-content: space-between;
      gap: var(--sfs-spacing-small, 0.5rem);
    }
    [part~="title"] {
      margin: 0 0 var(--sfs-spacing-small, 0.5rem);
      font-size: var(--sfs-similar-title-size, 1.125rem);
    }
    [part~="controls"] {
      display: flex;
      gap: var(--sfs-spacing-small, 0.5rem);
    }
    [part~="previous"],
    [part~="next"] {
      min-width: 2.75rem;
      min-height: 2.75rem;
      border: 1px solid var(--sfs-color-border, #d0d0d0);
      border-radius: var(--sfs-radius, 0.5rem);
      background: var(--sfs-color-surface, #fff);
      color: inherit;
      font: inherit;
      cursor: pointer;
    }
    [part~="previous"]:disabled,
    [part~="next"]:disabled {
      opacity: 0.4;
      cursor: default;
    }
    [part~="list"] {
      display: grid;
      grid-auto-flow: column;
      grid-auto-columns: var(--sfs-similar-card-width, min(45%, 14rem));
      gap: var(--sfs-grid-gap, 1rem);
      margin: 0;
      padding: 0 0 var(--sfs-spacing-small, 0.5rem);
      list-style: none;
      overflow-x: auto;
      scroll-snap-type: x mandatory;
      scroll-behavior: smooth;
      overscroll-behavior-x: contain;
    }
    [part~="item"] {
      scroll-snap-align: start;
      min-width: 0;
    }
    [part~="skeleton"] {
      aspect-ratio: var(--sfs-image-aspect-ratio, 3 / 4);
      border-radius: var(--sfs-radius, 0.5rem);
      background: var(--sfs-color-surface, #f4f4f4);
    }
    @media (prefers-reduced-motion: reduce) {
      [part~="list"] {
        scroll-behavior: auto;
      }
    }
  `,
];
