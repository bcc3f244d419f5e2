import { css } from "lit";
import { sharedStyles } from "../shared/shared.styles.ts";

export const paginationStyles = [
  sharedStyles,
  css`
    :host {
      display: block;
    }
    [part~="base"] {
      display: flex;
      justify-content: center;
    }
    [part~="list"] {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: 0.25rem;
      margin: 0;
      padding: 0;
      list-style: none;
    }
    [part~="button"] {
      min-width: 2.5rem;
      min-height: 2.5rem;
      padding: 0 0.75rem;
      background: var(--sfs-color-background, #ffffff);
      border: 1px solid var(--sfs-color-border, #d0d0d0);
      border-radius: var(--sfs-radius-small, 0.375rem);
    }
    [part~="button"]:disabled {
      opacity: 0.4;
      cursor: default;
    }
    [part~="current"] {
      background: var(--sfs-color-accent, #1f1f1f);
      border-color: var(--sfs-color-accent, #1f1f1f);
      color: var(--sfs-color-on-accent, #ffffff);
    }
    [part~="gap"] {
      padding: 0 0.25rem;
      color: var(--sfs-color-muted, #5c5c5c);
    }
  `,
];
