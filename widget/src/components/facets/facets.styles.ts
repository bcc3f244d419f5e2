import { css } from "lit";
import { sharedStyles } from "../shared/shared.styles.ts";

export const facetsStyles = [
  sharedStyles,
  css`
    :host {
      display: block;
      font-size: var(--sfs-font-size, 0.9375rem);
    }
    [part~="base"] {
      display: flex;
      flex-direction: column;
      gap: var(--sfs-spacing, 1rem);
    }
    [part~="selected"] {
      display: flex;
      flex-wrap: wrap;
      gap: 0.375rem;
      align-items: center;
      margin: 0;
      padding: 0;
      list-style: none;
    }
    [part~="chip"] {
      display: inline-flex;
      align-items: center;
      gap: 0.25rem;
      padding: 0.125rem 0.25rem 0.125rem 0.625rem;
      background: var(--sfs-chip-background, var(--sfs-color-surface, #f4f4f4));
      border: 1px solid var(--sfs-color-border, #d0d0d0);
      border-radius: var(--sfs-chip-radius, 999px);
      font-size: var(--sfs-font-size-small, 0.8125rem);
    }
    [part~="chip-remove"] {
      display: inline-flex;
      align-items: center;
      justify-content: center;
      width: 1.5rem;
      height: 1.5rem;
      padding: 0;
      background: none;
      border: none;
      border-radius: 999px;
      font-size: 1rem;
      line-height: 1;
    }
    [part~="clear-all"],
    [part~="show-more"] {
      padding: 0.25rem 0;
      background: none;
      border: none;
      color: var(--sfs-color-accent, #1f1f1f);
      text-decoration: underline;
      font-size: var(--sfs-font-size-small, 0.8125rem);
    }
    [part~="facet"] {
      padding: 0 0 var(--sfs-spacing-small, 0.5rem);
      border-bottom: 1px solid var(--sfs-color-border, #e2e2e2);
      min-width: 0;
    }
    [part~="facet-title"] {
      margin: 0;
      font-size: inherit;
      font-weight: var(--sfs-facet-title-font-weight, 600);
    }
    [part~="facet-toggle"] {
      display: flex;
      align-items: center;
      gap: 0.5rem;
      width: 100%;
      min-height: 2.75rem;
      padding: 0;
      background: none;
      border: none;
      font-weight: inherit;
      text-align: start;
    }
    [part~="facet-toggle"] > span:first-child {
      flex: 1;
    }
    [part~="facet-selected-count"] {
      min-width: 1.5em;
      padding: 0 0.375rem;
      border-radius: 999px;
      background: var(--sfs-color-accent, #1f1f1f);
      color: var(--sfs-color-on-accent, #ffffff);
      font-size: var(--sfs-font-size-small, 0.8125rem);
      text-align: center;
    }
    [part~="facet-marker"] {
      font-size: 1.25rem;
      line-height: 1;
    }
    [part~="filter"] {
      width: 100%;
      margin-bottom: 0.5rem;
      padding: 0.375rem 0.5rem;
      font: inherit;
      color: inherit;
      background: var(--sfs-color-background, #ffffff);
      border: 1px solid var(--sfs-color-border, #d0d0d0);
      border-radius: var(--sfs-radius-small, 0.375rem);
    }
    [part~="no-values"] {
      margin: 0.25rem 0;
      color: var(--sfs-color-muted, #5c5c5c);
    }
    [part~="values"] {
      display: flex;
      flex-direction: column;
      gap: 0.125rem;
      margin: 0;
      padding: 0;
      list-style: none;
    }
    .all {
      max-height: var(--sfs-facet-values-max-height, 16rem);
      overflow-y: auto;
      overscroll-behavior: contain;
    }
    [part~="value"] {
      display: flex;
      align-items: center;
      gap: 0.5rem;
      min-height: 1.75rem;
      cursor: pointer;
    }
    [part~="checkbox"] {
      width: 1rem;
      height: 1rem;
      margin: 0;
      accent-color: var(--sfs-color-accent, #1f1f1f);
      flex: none;
    }
    [part~="value-label"] {
      flex: 1;
      min-width: 0;
      overflow-wrap: anywhere;
    }
    [part~="count"] {
      color: var(--sfs-color-muted, #5c5c5c);
      font-size: var(--sfs-font-size-small, 0.8125rem);
    }
  `,
];
