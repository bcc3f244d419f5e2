import { css } from "lit";

/* Styles every component shares: box sizing, the focus ring, text only screen readers read. */
export const sharedStyles = css`
  :host {
    box-sizing: border-box;
    font-family: var(--sfs-font-family, inherit);
    color: var(--sfs-color-text, #1f1f1f);
  }
  *,
  *::before,
  *::after {
    box-sizing: inherit;
  }
  :focus-visible {
    outline: var(--sfs-focus-ring-width, 2px) solid var(--sfs-focus-ring-color, var(--sfs-color-accent, #1f1f1f));
    outline-offset: var(--sfs-focus-ring-offset, 2px);
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    padding: 0;
    margin: -1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
    border: 0;
  }
  button {
    font: inherit;
    color: inherit;
    cursor: pointer;
  }
  [hidden] {
    display: none;
  }
`;
