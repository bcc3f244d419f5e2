/*
 * The theme page's script (served transpiled as /theme/assets/theme.js): a designer edits the widget's theme
 * tokens (colours, corner radius, font, density) and sees them at once on the store's own widget in four preview
 * frames (results, typeahead, similar products, the look popup); "Save" writes them to the store's widget
 * settings. The shared staff session signs in (the store id and admin key kept in sessionStorage only, sent as
 * headers, never in a URL).
 */

import type { StoreSettings, StoreSettingsBody, WidgetSettings } from "@storefront-search/contract";
import { wcagContrast } from "culori";
import { byId as $ } from "../shell/dom.ts";
import { adminApi, startStaffSession, type Credentials } from "../shell/staff-session.ts";

type Theme = Record<string, string>;

const CREDENTIALS = "sfs-theme-credentials";

/** The colours a designer sets, with the widget's own defaults (widget/README.md, "Theme tokens"). */
const COLOURS: [token: string, label: string, fallback: string][] = [
  ["--sfs-color-accent", "Accent", "#1f1f1f"],
  ["--sfs-color-on-accent", "Text on accent", "#ffffff"],
  ["--sfs-color-text", "Text", "#1f1f1f"],
  ["--sfs-color-muted", "Secondary text", "#5c5c5c"],
  ["--sfs-color-background", "Background", "#ffffff"],
  ["--sfs-color-surface", "Surfaces", "#f4f4f4"],
  ["--sfs-color-border", "Borders", "#d0d0d0"],
  ["--sfs-color-sale", "Sale price", "#b3261e"],
];
const DEFAULT_RADIUS = 8;
/** Font stacks the shopper's device has: no font is fetched from anywhere. */
const FONTS: [label: string, stack: string][] = [
  ["The store page's font", ""],
  ["System sans-serif", "system-ui, sans-serif"],
  ["Serif", "Georgia, 'Times New Roman', serif"],
  ["Rounded", "ui-rounded, 'Arial Rounded MT Bold', system-ui, sans-serif"],
  ["Monospace", "ui-monospace, 'Courier New', monospace"],
];
/** Density moves every spacing token together; "comfortable" is the widget's default. */
const DENSITIES: Record<string, Theme> = {
  compact: {
    "--sfs-spacing": "0.625rem",
    "--sfs-spacing-small": "0.375rem",
    "--sfs-spacing-large": "1.25rem",
    "--sfs-grid-gap": "1rem 0.625rem",
    "--sfs-card-gap": "0.25rem",
  },
  comfortable: {
    "--sfs-spacing": "1rem",
    "--sfs-spacing-small": "0.5rem",
    "--sfs-spacing-large": "2rem",
    "--sfs-grid-gap": "1.5rem 1rem",
    "--sfs-card-gap": "0.375rem",
  },
  spacious: {
    "--sfs-spacing": "1.5rem",
    "--sfs-spacing-small": "0.75rem",
    "--sfs-spacing-large": "3rem",
    "--sfs-grid-gap": "2rem 1.5rem",
    "--sfs-card-gap": "0.5rem",
  },
};
/** Every token this page manages; the store's other tokens are kept as they are. */
const MANAGED = [
  ...COLOURS.map(([t]) => t),
  "--sfs-radius",
  "--sfs-radius-small",
  "--sfs-font-family",
  ...Object.keys(DENSITIES.comfortable!),
];

/** The store signed in to, as the session's load last gave it. */
let signedIn: Credentials | null = null;
/** The store's widget settings as last read or saved. */
let savedWidget: WidgetSettings = {};

const settingsApi = (method: "GET" | "PATCH", body?: StoreSettingsBody) => adminApi<StoreSettings>(signedIn!, method, "/settings", body);

/** "#abc" → "#aabbcc"; anything else that is not a hex colour → null. */
function hex(value: string | undefined): string | null {
  const v = value?.trim().toLowerCase() ?? "";
  if (/^#[0-9a-f]{6}$/.test(v)) return v;
  if (/^#[0-9a-f]{3}$/.test(v)) return `#${[...v.slice(1)].map((c) => c + c).join("")}`;
  return null;
}

/* ---------- the controls ---------- */

function buildControls(): void {
  const colours = $("colours");
  for (const [token, label] of COLOURS) {
    const p = document.createElement("p");
    p.className = "field";
    const id = `colour${token.slice("--sfs-color".length)}`;
    const l = document.createElement("label");
    l.htmlFor = id;
    l.textContent = label;
    const input = document.createElement("input");
    input.type = "color";
    input.id = id;
    input.dataset.token = token;
    p.append(l, " ", input);
    colours.append(p);
  }
  $<HTMLSelectElement>("font").append(...FONTS.map(([label, stack]) => new Option(label, stack)));
  $<HTMLSelectElement>("density").append(...Object.keys(DENSITIES).map((d) => new Option(d[0]!.toUpperCase() + d.slice(1), d)));
}

/** Sets the controls from a theme (the widget's defaults where it sets nothing). */
function showTheme(theme: Theme): void {
  for (const input of document.querySelectorAll<HTMLInputElement>("#colours input")) {
    const fallback = COLOURS.find(([t]) => t === input.dataset.token)![2];
    input.value = hex(theme[input.dataset.token!]) ?? fallback;
  }
  $<HTMLInputElement>("radius").value = String(
    parseInt(theme["--sfs-radius"] ?? "", 10) || (theme["--sfs-radius"] === "0px" ? 0 : DEFAULT_RADIUS),
  );
  $<HTMLSelectElement>("font").value = FONTS.some(([, s]) => s === theme["--sfs-font-family"]) ? theme["--sfs-font-family"]! : "";
  $<HTMLSelectElement>("density").value =
    Object.keys(DENSITIES).find((d) => DENSITIES[d]!["--sfs-spacing"] === theme["--sfs-spacing"]) ?? "comfortable";
  refresh();
}

/** What the controls say, as every managed token's value. */
function edited(): Theme {
  const theme: Theme = {};
  for (const input of document.querySelectorAll<HTMLInputElement>("#colours input")) theme[input.dataset.token!] = input.value;
  const radius = Number($<HTMLInputElement>("radius").value);
  theme["--sfs-radius"] = `${radius}px`;
  theme["--sfs-radius-small"] = `${Math.round(radius * 0.75)}px`;
  theme["--sfs-font-family"] = $<HTMLSelectElement>("font").value || "inherit";
  Object.assign(theme, DENSITIES[$<HTMLSelectElement>("density").value]);
  return theme;
}

/** What is saved: the store's other tokens, and the managed ones that differ from the widget's defaults. */
function themeToSave(): Theme {
  const before = savedWidget.theme ?? {};
  const defaults = defaultsTheme();
  const theme = Object.fromEntries(Object.entries(before).filter(([k]) => !MANAGED.includes(k)));
  for (const [k, v] of Object.entries(edited())) if (v !== defaults[k]) theme[k] = v;
  return theme;
}

function defaultsTheme(): Theme {
  const theme = Object.fromEntries(COLOURS.map(([t, , v]) => [t, v]));
  return {
    ...theme,
    "--sfs-radius": `${DEFAULT_RADIUS}px`,
    "--sfs-radius-small": `${DEFAULT_RADIUS * 0.75}px`,
    "--sfs-font-family": "inherit",
    ...DENSITIES.comfortable,
  };
}

/** Shows the edits in every preview frame and the contrast of the colour pairs that carry text. */
function refresh(): void {
  const theme = edited();
  $("radius-value").textContent = theme["--sfs-radius"]!;
  for (const frame of document.querySelectorAll<HTMLIFrameElement>(".previews iframe")) applyTo(frame, theme);
  const pairs: [string, string, string, number][] = [
    ["Text on background", "--sfs-color-text", "--sfs-color-background", 4.5],
    ["Secondary text on background", "--sfs-color-muted", "--sfs-color-background", 4.5],
    ["Accent on background (links, rings)", "--sfs-color-accent", "--sfs-color-background", 4.5],
    ["Text on accent", "--sfs-color-on-accent", "--sfs-color-accent", 4.5],
    ["Sale price on background", "--sfs-color-sale", "--sfs-color-background", 4.5],
  ];
  $("contrast").replaceChildren(
    ...pairs.map(([label, fg, bg, min]) => {
      const ratio = wcagContrast(theme[fg]!, theme[bg]!);
      const li = document.createElement("li");
      li.textContent = `${label}: ${ratio.toFixed(1)}:1${ratio < min ? ` (below ${min}:1)` : ""}`;
      if (ratio < min) li.className = "low";
      return li;
    }),
  );
}

/** Inline on the frame's root: it wins over the store's saved theme, which the widget applies with zero specificity. */
function applyTo(frame: HTMLIFrameElement, theme: Theme): void {
  const root = frame.contentDocument?.documentElement;
  if (!root) return;
  for (const [k, v] of Object.entries(theme)) root.style.setProperty(k, v);
}

/* ---------- signing in, loading, saving ---------- */

function setStatus(text: string): void {
  $("status").textContent = text;
}

/** Reads the store's theme into the controls and opens the previews (signed in). */
async function load(c: Credentials): Promise<void> {
  signedIn = c;
  savedWidget = (await settingsApi("GET")).widget;
  showTheme(savedWidget.theme ?? {});
  for (const frame of document.querySelectorAll<HTMLIFrameElement>(".previews iframe")) {
    if (frame.src) continue;
    frame.addEventListener("load", () => applyTo(frame, edited()));
    frame.src = frame.dataset.src!;
  }
}

function start(): void {
  buildControls();
  $("tokens").addEventListener("input", refresh);
  $("tokens").addEventListener("change", refresh);
  $("revert").addEventListener("click", () => showTheme(savedWidget.theme ?? {}));
  $("defaults").addEventListener("click", () => showTheme({}));
  $("tokens").addEventListener("submit", async (e) => {
    e.preventDefault();
    setStatus("Saving…");
    try {
      savedWidget = (await settingsApi("PATCH", { widget: { ...savedWidget, theme: themeToSave() } })).widget;
      setStatus("Saved: shoppers get this theme within a minute (the widget configuration is cached that long).");
    } catch (error) {
      // A 401 here is a page opened at another origin than PUBLIC_URL: the service says so.
      setStatus(`Not saved: ${(error as Error).message}`);
    }
  });
  startStaffSession({ storageKey: CREDENTIALS, workspace: $("editor"), load });
}

start();
