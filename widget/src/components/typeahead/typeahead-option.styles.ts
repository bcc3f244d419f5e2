import { css } from "lit";
import { sharedStyles } from "../shared/shared.styles.ts";

export const typeaheadOptionStyles = [
  sharedStyles,
  css`
    :host {
      display: block;
      cursor: pointer;
    }
    :host([aria-selected="true"]) [part~="base"] {
      background: var(--sfs-typeahead-active-background, var(--sfs-color-surface, #f0f0f0));
      /* The active option is told by a ring of the accent colour (3:1 against the popup), not the tint alone. */
      outline: var(--sfs-focus-ring-width, 2px) solid var(--sfs-focus-ring-color, var(--sfs-color-accent, #1f1f1f));
      outline-offset: calc(-1 * var(--sfs-focus-ring-width, 2px));
    }
    [part~="base"] {
      display: flex;
      align-items: center;
      gap: 0.625rem;
      padding: 0.375rem 0.75rem;
      border-radius: var(--sfs-radius-small, 0.375rem);
    }
    [part~="base"]:hover {
      background: var(--sfs-typeahead-hover-background, var(--sfs-color-surface, #f4f4f4));
    }
    [part~="label"] {
      flex: 1;
      min-width: 0;
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
    }
    [part~="match"] {
      background: none;
      color: inherit;
      font-weight: var(--sfs-typeahead-match-font-weight, 700);
    }
    [part~="count"],
    [part~="designer"] {
      color: var(--sfs-color-muted, #5c5c5c);
      font-size: var(--sfs-font-size-small, 0.8125rem);
    }
    [part~="image"] {
      width: var(--sfs-typeahead-image-size, 2.75rem);
      height: var(--sfs-typeahead-image-size, 2.75rem);
      object-fit: cover;
      border-radius: var(--sfs-radius-small, 0.375rem);
      background: var(--sfs-color-surface, #f4f4f4);
      flex: none;
    }
    [part~="text"] {
      display: flex;
      flex-direction: column;
      flex: 1;
      min-width: 0;
    }
    [part~="price"] {
      font-size: var(--sfs-font-size-small, 0.8125rem);
      font-weight: 600;
    }
  `,
];
