import { css } from "lit";
import { carouselStyles } from "../shared/pager.ts";
import { sharedStyles } from "../shared/shared.styles.ts";

export const similarProductsStyles = [
  sharedStyles,
  carouselStyles,
  css`
    [part~="title"] {
      margin: 0 0 var(--sfs-spacing-small, 0.5rem);
      font-size: var(--sfs-similar-title-size, 1.125rem);
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
    }
    @media (prefers-reduced-motion: reduce) {
      [part~="list"] {
        scroll-behavior: auto;
      }
    }
  `,
];
