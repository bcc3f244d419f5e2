import { css } from "lit";
import { sharedStyles } from "../shared/shared.styles.ts";

export const typeaheadStyles = [
  sharedStyles,
  css`
    :host {
      position: fixed;
      inset: var(--sfs-typeahead-anchor-top, auto) auto auto var(--sfs-typeahead-anchor-left, auto);
      margin: 0;
      padding: 0;
      border: 0;
      background: none;
      color: inherit;
      overflow: visible;
      z-index: var(--sfs-z-index, 2147483000);
      display: block;
      width: max(var(--sfs-typeahead-anchor-width, 20rem), var(--sfs-typeahead-min-width, 20rem));
      max-width: calc(100vw - 1rem);
      font-size: var(--sfs-font-size, 0.9375rem);
    }
    :host([hidden]) {
      display: none;
    }
    [part~="base"] {
      margin-top: var(--sfs-typeahead-offset, 0.25rem);
      padding: 0.375rem;
      max-height: var(--sfs-typeahead-max-height, 60vh);
      overflow-y: auto;
      background: var(--sfs-color-background, #ffffff);
      border: 1px solid var(--sfs-color-border, #d0d0d0);
      border-radius: var(--sfs-radius, 0.5rem);
      box-shadow: var(--sfs-shadow, 0 8px 24px rgb(0 0 0 / 0.12));
    }
    [part~="group"] + [part~="group"] {
      margin-top: 0.375rem;
      padding-top: 0.375rem;
      border-top: 1px solid var(--sfs-color-border, #e2e2e2);
    }
    [part~="status"] {
      padding: 0.5rem 0.75rem;
      color: var(--sfs-color-muted, #5c5c5c);
    }
    [part~="group-label"] {
      padding: 0.25rem 0.75rem;
      font-size: var(--sfs-font-size-small, 0.75rem);
      font-weight: 600;
      color: var(--sfs-color-muted, #5c5c5c);
      text-transform: var(--sfs-typeahead-group-label-transform, uppercase);
      letter-spacing: 0.04em;
    }
  `,
];
