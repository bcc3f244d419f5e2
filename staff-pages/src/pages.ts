/*
 * Every staff page, as the build makes it and the servers serve it: dist/<page>/index.html (the page's HTML with the
 * shared sign-in form in place of its marker) and dist/<page>/assets/<file> (its scripts, each one self-contained
 * browser module; its stylesheets, the shared one first; and libraries copied as they are).
 */
export interface StaffPage {
  html: string;
  /** Served file name -> the TypeScript entry it is built from. */
  scripts: Record<string, string>;
  /** Served file name -> the stylesheets it is made of, in order. */
  styles: Record<string, string[]>;
  /** Served file name -> a file of a dependency, copied as it is. */
  libraries?: Record<string, string>;
}

const SHELL_CSS = "shell/staff-page.css";

export const STAFF_PAGES = {
  reports: {
    html: "reports/reports.html",
    scripts: { "reports.js": "reports/reports.ts" },
    styles: { "reports.css": [SHELL_CSS, "reports/reports.css"] },
    libraries: { "uplot.js": "uplot/dist/uPlot.iife.min.js", "uplot.css": "uplot/dist/uPlot.min.css" },
  },
  merchandising: {
    html: "merchandising/merchandising.html",
    scripts: { "merchandising.js": "merchandising/merchandising.ts" },
    styles: { "merchandising.css": [SHELL_CSS, "merchandising/merchandising.css"] },
  },
  theme: {
    html: "theme/theme.html",
    scripts: { "theme.js": "theme/theme.ts", "preview.js": "theme/preview.ts" },
    styles: { "theme.css": ["theme/theme.css"], "preview.css": ["theme/preview.css"] },
  },
} satisfies Record<string, StaffPage>;

export type StaffPageName = keyof typeof STAFF_PAGES;

/** Where a page's HTML takes the sign-in form every staff page shares (shell/sign-in.html). */
export const SIGN_IN_MARKER = "<!-- sign-in -->";
