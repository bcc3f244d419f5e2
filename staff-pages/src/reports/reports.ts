/*
 * The reports page's script (served as /reports/assets/reports.js): the shared staff session signs in (the store
 * id and admin key kept in sessionStorage only, sent as headers, never in a URL); the period and filters are kept
 * in the page's query string. The answers are the contract's report types. Queries and product ids are shopper
 * input: everything is written with textContent.
 */
import type {
  ClickPositionsReport,
  OverviewFigures,
  OverviewReport,
  PreprodReport,
  RecommendationsReport,
  ReportName,
  Reports,
} from "@storefront-search/contract";
import type UPlot from "uplot";
import { byId, el } from "../shell/dom.ts";
import { adminFetch, ApiError, startStaffSession, type Credentials, type StaffSession } from "../shell/staff-session.ts";

const CREDENTIALS = "sfs-reports-credentials";
const DAY_MS = 86_400_000;
/** Rows each table shows; a CSV download has up to the API's most (1000). */
const TABLE_ROWS = 50;
const CSV_ROWS = 1000;
const CHART_HEIGHT = 220;

interface Filters {
  from: string;
  to: string;
  region: string;
  language: string;
  currency: string;
}

const FILTER_NAMES = ["from", "to", "region", "language", "currency"] as const;

/* ---------- numbers ---------- */

const integerFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const decimalFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });
const percentFormat = new Intl.NumberFormat(undefined, { style: "percent", maximumFractionDigits: 1 });
const moneyFormats = new Map<string, Intl.NumberFormat | null>();
const NONE = "—";

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const integer = (v: unknown) => (num(v) === null ? NONE : integerFormat.format(num(v)!));
const decimal = (v: unknown) => (num(v) === null ? NONE : decimalFormat.format(num(v)!));
const percent = (v: unknown) => (num(v) === null ? NONE : percentFormat.format(num(v)!));

function money(value: number, currency: string): string {
  // XXX is "no currency": Intl would print it with the generic sign ¤.
  if (!moneyFormats.has(currency)) {
    let format: Intl.NumberFormat | null = null;
    if (currency !== "XXX") {
      try {
        format = new Intl.NumberFormat(undefined, { style: "currency", currency });
      } catch {
        format = null;
      }
    }
    moneyFormats.set(currency, format);
  }
  const format = moneyFormats.get(currency);
  return format
    ? format.format(value)
    : `${new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value)} ${currency}`;
}

const revenueEntries = (v: unknown): [string, number][] =>
  v && typeof v === "object" ? Object.entries(v as Record<string, unknown>).filter((e): e is [string, number] => num(e[1]) !== null) : [];
const revenueText = (v: unknown) =>
  revenueEntries(v)
    .map(([c, n]) => money(n, c))
    .join(", ") || NONE;

/* ---------- filters (kept in the page's query string, never the key) ---------- */

const isDate = (s: string | null): s is string => !!s && /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`));
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The API's default: the last 7 days, today (UTC) included. */
function defaultRange(): { from: string; to: string } {
  const to = dayOf(Date.now());
  return { from: dayOf(Date.parse(`${to}T00:00:00Z`) - 6 * DAY_MS), to };
}

function filtersFromUrl(): Filters {
  const q = new URLSearchParams(location.search);
  const range = defaultRange();
  const to = isDate(q.get("to")) ? q.get("to")! : range.to;
  const from = isDate(q.get("from"))
    ? q.get("from")!
    : isDate(q.get("to"))
      ? dayOf(Date.parse(`${to}T00:00:00Z`) - 6 * DAY_MS)
      : range.from;
  const text = (name: string) => (q.get(name) ?? "").trim().slice(0, 64);
  return { from, to, region: text("region"), language: text("language"), currency: text("currency") };
}

function filtersFromInputs(): Filters {
  const value = (name: (typeof FILTER_NAMES)[number]) => byId<HTMLInputElement>(name).value.trim();
  const range = defaultRange();
  return {
    from: value("from") || range.from,
    to: value("to") || range.to,
    region: value("region"),
    language: value("language"),
    currency: value("currency"),
  };
}

function showFilters(f: Filters): void {
  for (const name of FILTER_NAMES) byId<HTMLInputElement>(name).value = f[name];
}

/** The filters as query parameters, empty ones left out. */
function filterParams(f: Filters): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of FILTER_NAMES) if (f[name]) params.set(name, f[name]);
  return params;
}

/* ---------- the API ---------- */

/** The store signed in to, as the session's load last gave it; null once signed out. */
let signedIn: Credentials | null = null;
let session: StaffSession;

const call = (c: Credentials, name: ReportName, params: URLSearchParams) =>
  adminFetch(c, "GET", `/reports/${encodeURIComponent(name)}?${params}`);

const withParams = (base: URLSearchParams, extra: Record<string, string>) => {
  const params = new URLSearchParams(base);
  for (const [k, v] of Object.entries(extra)) params.set(k, v);
  return params;
};

/* ---------- rendering: figures and tables ---------- */

type Kind = "int" | "pct" | "dec" | "money";
const formatOf: Record<Exclude<Kind, "money">, (v: unknown) => string> = { int: integer, pct: percent, dec: decimal };

const OVERVIEW: [field: keyof OverviewFigures, label: string, kind: Kind][] = [
  ["searches", "Searches", "int"],
  ["users", "Users", "int"],
  ["sessions", "Sessions", "int"],
  ["noResultRate", "No-result rate", "pct"],
  ["clickThroughRate", "Click-through rate", "pct"],
  ["conversionRate", "Conversion rate", "pct"],
  ["addToCartRate", "Add-to-cart rate", "pct"],
  ["orders", "Orders", "int"],
  ["revenue", "Revenue", "money"],
  ["averageClickPosition", "Average click position", "dec"],
];

/** One figure of a <dl>: `attr` (data-metric) names the field; data-value holds the raw value shown. */
function figure(list: HTMLElement, attr: string, field: string, label: string, kind: Kind, value: unknown): void {
  const box = el("div", undefined, { class: "figure" });
  const dd = el("dd", undefined, { [attr]: field });
  if (kind === "money") {
    const entries = revenueEntries(value);
    if (!entries.length) dd.textContent = NONE;
    for (const [currency, amount] of entries) {
      dd.append(el("span", money(amount, currency), { "data-currency": currency, "data-value": String(amount) }));
    }
    dd.setAttribute("data-value", JSON.stringify(Object.fromEntries(entries)));
  } else {
    dd.textContent = formatOf[kind](value);
    dd.setAttribute("data-value", num(value) === null ? "" : String(value));
  }
  box.append(el("dt", label), dd);
  list.append(box);
}

interface Column<R> {
  label: string;
  value: (row: R) => string;
  /** Right-aligned figures. */
  numeric?: boolean;
}

const col = <R>(label: string, field: keyof R, format: (v: unknown) => string, numeric = true): Column<R> => ({
  label,
  value: (r) => format(r[field]),
  numeric,
});
const textCol = <R>(label: string, field: keyof R): Column<R> => ({ label, value: (r) => String(r[field] ?? ""), numeric: false });

/** A table in `container` (replacing what was there); the first column heads its row. */
function table<R>(container: HTMLElement, caption: string, columns: Column<R>[], rows: R[], empty = "Nothing in this period."): void {
  container.replaceChildren();
  if (!rows.length) {
    container.append(el("p", empty, { class: "empty" }));
    return;
  }
  const t = el("table");
  t.append(el("caption", caption, { class: "visually-hidden" }));
  const head = el("tr");
  for (const c of columns) head.append(el("th", c.label, { scope: "col", ...(c.numeric ? { class: "num" } : {}) }));
  const thead = el("thead");
  thead.append(head);
  t.append(thead);
  const body = el("tbody");
  for (const row of rows) {
    const tr = el("tr");
    columns.forEach((c, i) =>
      tr.append(el(i === 0 ? "th" : "td", c.value(row), { ...(i === 0 ? { scope: "row" } : {}), ...(c.numeric ? { class: "num" } : {}) })),
    );
    body.append(tr);
  }
  t.append(body);
  container.append(t);
}

const QUERY_COLUMNS: Column<Reports["searches"]["searches"][number]>[] = [
  textCol("Query", "query"),
  col("Searches", "count", integer),
  col("Click-through", "clickThroughRate", percent),
  col("Conversion", "conversionRate", percent),
  col("Avg. click position", "averageClickPosition", decimal),
  col("Without results", "noResultCount", integer),
];

function renderOverview(o: OverviewReport): void {
  const list = byId("overview");
  list.replaceChildren();
  for (const [field, label, kind] of OVERVIEW) figure(list, "data-metric", field, label, kind, o[field]);
}

function renderRecommendations(r: RecommendationsReport): void {
  const similar = r.similarProducts;
  const ctl = r.completeTheLook;
  const rows = [
    { widget: "Similar products", figure: "Views", value: integer(similar.views) },
    { widget: "Similar products", figure: "Clicks", value: integer(similar.clicks) },
    { widget: "Similar products", figure: "Click-through rate", value: percent(similar.clickThroughRate) },
    { widget: "Complete the look", figure: "Loads", value: integer(ctl.loads) },
    { widget: "Complete the look", figure: "View Look clicks", value: integer(ctl.viewLookClicks) },
    { widget: "Complete the look", figure: "Product clicks", value: integer(ctl.productClicks) },
    { widget: "Complete the look", figure: "Popup product clicks", value: integer(ctl.popupProductClicks) },
    { widget: "Complete the look", figure: "Page changes", value: integer(ctl.pageChanges) },
    { widget: "Complete the look", figure: "Popup page changes", value: integer(ctl.popupPageChanges) },
    { widget: "Complete the look", figure: "Click-through rate", value: percent(ctl.clickThroughRate) },
    ...r.placements.map((p) => ({ widget: `Placement: ${p.placement}`, figure: "Clicks", value: integer(p.clicks) })),
  ];
  table(
    byId("recommendations"),
    "Recommendations figures",
    [textCol("Widget", "widget"), textCol("Figure", "figure"), { label: "Value", value: (row) => row.value, numeric: true }],
    rows,
  );
  table(
    byId("view-look-positions"),
    "View Look clicks by look position",
    [col("Look position", "position", integer), col("View Look clicks", "clicks", integer)],
    ctl.viewLookPositions,
  );
}

function renderPreprod(p: PreprodReport): void {
  const compared = p.comparedQueries;
  const list = byId("preprod-figures");
  list.replaceChildren();
  byId("preprod-empty").hidden = compared > 0;
  const zero = p.zeroResultRate;
  if (compared === 0) {
    byId("preprod-queries").replaceChildren();
    return;
  }
  const figures: [string, string, Kind, unknown][] = [
    ["comparedQueries", "Compared queries", "int", p.comparedQueries],
    ["comparedSearches", "Compared searches", "int", p.comparedSearches],
    ["coverage", "Coverage (compared searches ÷ searches with a query)", "pct", p.coverage],
    ["zeroResultRate.theirs", "No-result rate, the store's search", "pct", zero.theirs],
    ["zeroResultRate.ours", "No-result rate, pre-production", "pct", zero.ours],
    ["clickedInOurTop10", "Clicked products in our top 10", "pct", p.clickedInOurTop10],
    ["clickedInOurTop30", "Clicked products in our top 30", "pct", p.clickedInOurTop30],
    ["overlapAt10", "Overlap of the top 10", "pct", p.overlapAt10],
  ];
  for (const [field, label, kind, value] of figures) figure(list, "data-preprod", field, label, kind, value);
  table(
    byId("preprod-queries"),
    "Compared queries",
    [
      textCol("Query", "query"),
      col("Searches", "searches", integer),
      col("Store: no results", "theirNoResults", integer),
      col("Ours: results", "ourTotal", integer),
      col("Clicks", "clicks", integer),
      col("In our top 10", "clicksInOurTop10", integer),
      col("In our top 30", "clicksInOurTop30", integer),
      col("Overlap at 10", "overlapAt10", percent),
    ],
    p.queries,
  );
}

function clearReports(): void {
  for (const id of [
    "overview",
    "top-queries",
    "no-result-queries",
    "no-click-queries",
    "top-products",
    "click-positions",
    "recommendations",
    "view-look-positions",
    "preprod-figures",
    "preprod-queries",
    "positions-note",
  ]) {
    byId(id).replaceChildren();
  }
  byId("preprod-empty").hidden = true;
}

/* ---------- charts (uPlot) ---------- */

/** The global of /reports/assets/uplot.js, loaded before this script. */
const Plot = (window as unknown as { uPlot?: typeof UPlot }).uPlot;
const charts: UPlot[] = [];
const COLORS = {
  blue: "#1f5fbf",
  blueFill: "rgba(31, 95, 191, 0.12)",
  orange: "#b0471b",
  green: "#2e7d32",
  greenFill: "rgba(46, 125, 50, 0.55)",
};

function destroyCharts(): void {
  for (const chart of charts.splice(0)) chart.destroy();
  for (const id of ["chart-searches", "chart-rates", "chart-positions"]) document.getElementById(id)?.replaceChildren();
}

const widthOf = (box: HTMLElement) => Math.max(240, Math.floor(box.clientWidth));

function chart(boxId: string, opts: Omit<UPlot.Options, "width" | "height">, data: UPlot.AlignedData): void {
  if (!Plot) throw new Error("The chart library did not load.");
  const box = byId(boxId);
  box.replaceChildren();
  charts.push(new Plot({ ...opts, width: widthOf(box), height: CHART_HEIGHT } as UPlot.Options, data, box));
}

const integerTicks = (_u: UPlot, splits: number[]) => splits.map((v) => (Number.isInteger(v) ? integerFormat.format(v) : ""));
const percentTicks = (_u: UPlot, splits: number[]) => splits.map((v) => percentFormat.format(v));
const utc = (ts: number) => Plot!.tzDate(new Date(ts * 1000), "Etc/UTC");
const DAY_S = 86_400;
/** Ticks on whole days only: the figures are per day. */
const dayAxis = (): UPlot.Axis => ({ incrs: [1, 2, 7, 14, 28, 56, 91, 182, 364].map((d) => d * DAY_S), space: 60 });

function renderCharts(overview: OverviewReport, positions: ClickPositionsReport): void {
  destroyCharts();
  const daily = overview.daily;
  const days = daily.map((d) => Date.parse(`${d.date}T00:00:00Z`) / 1000);
  const series = (field: "searches" | "clickThroughRate" | "conversionRate") => daily.map((d) => d[field]);
  chart(
    "chart-searches",
    {
      tzDate: utc,
      scales: { y: { range: (_u, _min, max) => [0, Math.max(1, max ?? 1)] } },
      axes: [dayAxis(), { values: integerTicks, size: 50 }],
      series: [
        { label: "Day (UTC)", value: "{YYYY}-{MM}-{DD}" },
        { label: "Searches", stroke: COLORS.blue, fill: COLORS.blueFill, width: 2, value: (_u, v) => integer(v) },
      ],
    },
    [days, series("searches")],
  );
  chart(
    "chart-rates",
    {
      tzDate: utc,
      scales: { y: { range: (_u, _min, max) => [0, Math.min(1, Math.max(0.05, (max ?? 0) * 1.1))] } },
      axes: [dayAxis(), { values: percentTicks, size: 56 }],
      series: [
        { label: "Day (UTC)", value: "{YYYY}-{MM}-{DD}" },
        // Points too: a day between days without searches (no rate) has no line to either side.
        { label: "Click-through rate", stroke: COLORS.blue, width: 2, points: { show: true, size: 6 }, value: (_u, v) => percent(v) },
        {
          label: "Conversion rate",
          stroke: COLORS.orange,
          width: 2,
          dash: [6, 4],
          points: { show: true, size: 6 },
          value: (_u, v) => percent(v),
        },
      ],
    },
    [days, series("clickThroughRate"), series("conversionRate")],
  );
  const counts = positions.positions;
  const last = counts.at(-1)?.position ?? 1;
  const bars = Plot?.paths.bars?.({ size: [0.7, 48] });
  chart(
    "chart-positions",
    {
      scales: {
        // Positions are only those clicked (a click at 40 after none from 15 to 39): the axis runs to the last.
        x: { time: false, range: [0.5, last + 0.5] },
        y: { range: (_u, _min, max) => [0, Math.max(1, max ?? 1)] },
      },
      axes: [{ values: integerTicks }, { values: integerTicks, size: 50 }],
      series: [
        { label: "Position", value: (_u, v) => integer(v) },
        {
          label: "Clicks",
          stroke: COLORS.green,
          fill: COLORS.greenFill,
          width: 1,
          ...(bars ? { paths: bars } : {}),
          points: { show: false },
          value: (_u, v) => integer(v),
        },
      ],
    },
    [counts.map((p) => p.position), counts.map((p) => p.clicks)],
  );
  const beyond = positions.beyond;
  byId("positions-note").textContent =
    `${integer(positions.clicks)} ${positions.clicks === 1 ? "click" : "clicks"} from search results; average position ${decimal(positions.averageClickPosition)}` +
    (beyond > 0 ? `; ${integer(beyond)} of them beyond position ${integer(last)}.` : ".");
}

/** Charts follow their boxes' width: as the window changes, and once the page shows them (drawn hidden, during sign-in). */
let resizeTimer = 0;
const resized = new ResizeObserver(() => {
  clearTimeout(resizeTimer);
  resizeTimer = window.setTimeout(() => {
    for (const c of charts) c.setSize({ width: widthOf(c.root.parentElement ?? c.root), height: CHART_HEIGHT });
  }, 100);
});

/* ---------- loading ---------- */

/** Each load (and sign-out) takes a number: an answer to an older one is dropped. */
let generation = 0;

function status(text: string, error = false): void {
  const s = byId("status");
  s.textContent = text;
  s.classList.toggle("error", error);
}

function describe(f: Filters): string {
  const parts = [`${f.from} to ${f.to} (UTC)`];
  if (f.region) parts.push(`region ${f.region}`);
  if (f.language) parts.push(`language ${f.language}`);
  if (f.currency) parts.push(`currency ${f.currency.toUpperCase()}`);
  return parts.join(", ");
}

/** Reads and shows the reports of the period and filters in the address. */
async function showReports(c: Credentials): Promise<void> {
  const mine = ++generation;
  const f = filtersFromUrl();
  showFilters(f);
  const scope = filterParams(f);
  const get = async <N extends ReportName>(name: N, extra: Record<string, string> = {}) =>
    (await (await call(c, name, withParams(scope, extra))).json()) as Reports[N];
  status("Loading…");
  byId("reports").setAttribute("aria-busy", "true");
  try {
    const rows = { limit: String(TABLE_ROWS) };
    const [overview, top, noResults, noClicks, products, positions, recommendations, preprod] = await Promise.all([
      get("overview"),
      get("searches", rows),
      get("searches", { ...rows, filter: "no-results" }),
      get("searches", { ...rows, filter: "no-clicks" }),
      get("products", rows),
      get("click-positions"),
      get("recommendations"),
      get("preprod", rows),
    ]);
    if (mine !== generation) return;
    renderOverview(overview);
    renderCharts(overview, positions);
    table(byId("top-queries"), "Top queries", QUERY_COLUMNS, top.searches);
    table(
      byId("no-result-queries"),
      "Queries without results",
      [textCol("Query", "query"), col("Searches", "count", integer)],
      noResults.searches,
    );
    table(
      byId("no-click-queries"),
      "Queries without clicks",
      [textCol("Query", "query"), col("Searches", "count", integer), col("Conversion", "conversionRate", percent)],
      noClicks.searches,
    );
    table(
      byId("top-products"),
      "Top products by clicks",
      [
        textCol("Product id", "productId"),
        col("Clicks", "clicks", integer),
        col("Add to carts", "addToCarts", integer),
        col("Purchases", "purchases", integer),
        col("Revenue", "revenue", revenueText),
      ],
      products.products,
    );
    table(
      byId("click-positions"),
      "Clicks by position",
      [col("Position", "position", integer), col("Clicks", "clicks", integer)],
      positions.positions,
    );
    renderRecommendations(recommendations);
    renderPreprod(preprod);
    status(`Showing ${describe(f)}.`);
  } catch (error) {
    // An answer to a read that a newer one (or a sign-out) replaced says nothing about the page any more.
    if (mine === generation) throw error;
  } finally {
    if (mine === generation) byId("reports").removeAttribute("aria-busy");
  }
}

/** The session's load: a wrong id or key fails the sign-in; any other failure is said beside the filters. */
async function load(c: Credentials): Promise<void> {
  signedIn = c;
  try {
    await showReports(c);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) throw error;
    fail(error);
  }
}

/** The reports again, for the address's period and filters (Apply, Back). */
function reload(): void {
  if (signedIn) showReports(signedIn).catch(fail);
}

function forget(): void {
  signedIn = null;
  generation++;
  destroyCharts();
  clearReports();
  status("");
}

function fail(error: unknown): void {
  if (error instanceof ApiError && error.status === 401) {
    session.signOut(`Not signed in: the server did not accept the store id and admin key (${error.message}).`);
    return;
  }
  status(error instanceof Error ? error.message : String(error), true);
}

/* ---------- CSV downloads: fetched with the headers, saved from a Blob URL (the key is never in a URL) ---------- */

async function download(button: HTMLButtonElement): Promise<void> {
  if (!signedIn) return;
  const f = filtersFromUrl();
  const report = (button.dataset.report ?? "overview") as ReportName;
  const filter = button.dataset.filter;
  const extra: Record<string, string> = { format: "csv", limit: String(CSV_ROWS), ...(filter ? { filter } : {}) };
  button.disabled = true;
  try {
    const blob = await (await call(signedIn, report, withParams(filterParams(f), extra))).blob();
    const url = URL.createObjectURL(new Blob([blob], { type: "text/csv;charset=utf-8" }));
    const a = el("a", undefined, { href: url, download: `${report}${filter ? `-${filter}` : ""}-${f.from}-${f.to}.csv` });
    a.hidden = true;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 30_000);
  } catch (error) {
    fail(error);
  } finally {
    button.disabled = false;
  }
}

/* ---------- wiring ---------- */

function start(): void {
  byId<HTMLFormElement>("filters").addEventListener("submit", (event) => {
    event.preventDefault();
    const params = filterParams(filtersFromInputs());
    history.pushState(null, "", `${location.pathname}?${params}`);
    reload();
  });
  window.addEventListener("popstate", reload);
  for (const button of document.querySelectorAll<HTMLButtonElement>("button.csv")) {
    button.addEventListener("click", () => void download(button));
  }
  for (const id of ["chart-searches", "chart-rates", "chart-positions"]) resized.observe(byId(id));
  session = startStaffSession({ storageKey: CREDENTIALS, workspace: byId("reports"), load, signedOut: forget });
}

start();
