/*
 * Every staff page, as the build makes it and the servers serve it: dist/<page>/index.html (the shared shell,
 * shell/page.html, around the page's own content) and dist/<page>/assets/<file> (its scripts, each one
 * self-contained browser module; its stylesheets, the shared one first; and libraries copied as they are).
 * A new page is one entry here and a folder beside this file (docs/staff-pages.md).
 */
export interface StaffPage {
  /** The document's title. */
  title: string;
  /** The header's heading. */
  heading: string;
  /** The page's own part of <main>, after the shared sign-in form. */
  content: string;
  /** Served file name -> the TypeScript entry it is built from. */
  scripts: Record<string, string>;
  /** Served file name -> the stylesheets it is made of, in order. */
  styles: Record<string, string[]>;
  /** Served file name -> a file of a dependency, copied as it is. */
  libraries?: Record<string, string>;
  /**
   * The assets the page's head loads, in order: a stylesheet (.css) as a link, a script of `scripts` as a module,
   * a library's script as a classic deferred one (it sets a global the page's module reads).
   */
  head: string[];
}

/** The shell every page is written into, and the stylesheet every page's own styles follow. */
export const SHELL_HTML = "shell/page.html";
export const SHELL_CSS = "shell/staff-page.css";

export const STAFF_PAGES = {
  reports: {
    title: "Search reports",
    heading: "Search reports",
    content: "reports/reports.html",
    scripts: { "reports.js": "reports/reports.ts" },
    styles: { "reports.css": [SHELL_CSS, "reports/reports.css"] },
    libraries: { "uplot.js": "uplot/dist/uPlot.iife.min.js", "uplot.css": "uplot/dist/uPlot.min.css" },
    head: ["uplot.css", "reports.css", "uplot.js", "reports.js"],
  },
  merchandising: {
    title: "Merchandising",
    heading: "Merchandising",
    content: "merchandising/merchandising.html",
    scripts: { "merchandising.js": "merchandising/merchandising.ts" },
    styles: { "merchandising.css": [SHELL_CSS, "merchandising/merchandising.css"] },
    head: ["merchandising.css", "merchandising.js"],
  },
  experiments: {
    title: "Experiments",
    heading: "Experiments",
    content: "experiments/experiments.html",
    scripts: { "experiments.js": "experiments/experiments.ts" },
    styles: { "experiments.css": [SHELL_CSS, "experiments/experiments.css"] },
    head: ["experiments.css", "experiments.js"],
  },
  theme: {
    title: "Search theme · Demo Fashion Store",
    heading: "Search theme",
    content: "theme/theme.html",
    // preview.* are the preview frames' own (the demo store's /theme/preview/<view>), not this page's.
    scripts: { "theme.js": "theme/theme.ts", "preview.js": "theme/preview.ts" },
    styles: { "theme.css": [SHELL_CSS, "theme/theme.css"], "preview.css": ["theme/preview.css"] },
    head: ["theme.css", "theme.js"],
  },
} satisfies Record<string, StaffPage>;

export type StaffPageName = keyof typeof STAFF_PAGES;
