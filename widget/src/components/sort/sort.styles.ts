import { css } from "lit";
import { sharedStyles } from "../shared/shared.styles.ts";

export const sortStyles = [
  sharedStyles,
  css`
    :host {
      display: inline-block;
    }
    [part~="base"] {
      display: inline-flex;
      align-items: center;
      gap: 0.5rem;
    }
    [part~="label"] {
      font-size: var(--sfs-font-size-small, 0.8125rem);
      color: var(--sfs-color-muted, #5c5c5c);
    }
    [part~="select"] {
      min-height: 2.25rem;
      padding: 0.25rem 0.5rem;
      font: inherit;
      color: inherit;
      background: var(--sfs-color-background, #ffffff);
      border: 1px solid var(--sfs-color-border, #d0d0d0);
      border-radius: var(--sfs-radius-small, 0.375rem);
    }
  `,
];
