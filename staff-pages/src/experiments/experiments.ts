/*
 * The experiments page's script (served as /experiments/assets/experiments.js): store staff list the store's
 * experiments, create one (scope, mode, variants with their shares and overrides), start, stop, end it with a
 * winner or delete it, estimate before the start how many shoppers it needs, and read its results per variant with
 * their intervals and the difference to the control. Everything goes through the admin API; text from it is only
 * ever set as textContent.
 */

import type {
  Comparison,
  Deleted,
  Experiment,
  ExperimentBody,
  ExperimentEndReport,
  ExperimentList,
  ExperimentResults,
  ExperimentScope,
  ExperimentStatus,
  ExperimentVariant,
  Interval,
  RateResult,
  SampleSizeEstimate,
  VariantOverrides,
  VariantSettings,
} from "@storefront-search/contract";
import { byId as $, el } from "../shell/dom.ts";
import { adminApi, startStaffSession, type Credentials } from "../shell/staff-session.ts";

const CREDENTIALS = "sfs-experiments-credentials";
const MAX_VARIANTS = 5;

const input = (id: string) => $<HTMLInputElement>(id);
const select = (id: string) => $<HTMLSelectElement>(id);

/** The store signed in to, as the session's load last gave it. */
let signedIn: Credentials | null = null;
/** The experiment the detail section shows. */
let shown: Experiment | null = null;

const api = <T>(method: string, path: string, body?: unknown) => adminApi<T>(signedIn!, method, path, body);
const experimentPath = (id: string, action = "") => `/experiments/${encodeURIComponent(id)}${action}`;

function setStatus(text: string): void {
  $("status").textContent = text;
}

function button(label: string, onClick: () => void, accessibleName: string): HTMLButtonElement {
  const b = el("button", label, { type: "button", class: "small", "aria-label": accessibleName });
  b.addEventListener("click", onClick);
  return b;
}

/** Comma-separated text as its trimmed, non-empty parts. */
const list = (text: string) =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/* ---------- how figures read ---------- */

const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;
const points = (difference: number) => `${difference >= 0 ? "+" : "−"}${Math.abs(difference * 100).toFixed(1)} pts`;
const money = (value: number) => value.toFixed(2);
const signedMoney = (value: number) => `${value >= 0 ? "+" : "−"}${money(Math.abs(value))}`;
const count = (n: number) => n.toLocaleString("en");
const pValue = (p: number) => (p < 0.0001 ? "p < 0.0001" : `p = ${p.toPrecision(2)}`);
const range = (i: Interval, show: (n: number) => string) => `95% interval ${show(i.low)} to ${show(i.high)}`;

function describeScope(scope: ExperimentScope): string {
  if (scope.type === "all") return "all searches";
  if (scope.type === "collection") return `collection page ${scope.collection}`;
  const how = { is: "the query", startsWith: "queries starting with", contains: "queries containing" }[scope.anchoring];
  return `${how} “${scope.pattern}”`;
}

const MODES: Record<Experiment["mode"], string> = {
  ab: "A/B test (each shopper sees one variant)",
  interleaving: "interleaving (two rankings mixed in one results list)",
};

const describeVariants = (e: Experiment) => e.variants.map((v) => `${v.name} ${v.share}%`).join(", ");

/* ---------- the list ---------- */

const ACTIONS: Record<ExperimentStatus, ("start" | "stop" | "delete")[]> = {
  draft: ["start", "delete"],
  running: ["stop"],
  stopped: ["delete"],
  ended: [],
};

async function loadExperiments(): Promise<void> {
  const { experiments } = await api<ExperimentList>("GET", "/experiments");
  $("experiments-table")
    .querySelector("tbody")!
    .replaceChildren(
      ...experiments.map((e) => {
        const row = el("tr", undefined, { "data-experiment": e.id });
        const name = el("td");
        name.append(el("strong", e.name), el("br"), el("span", MODES[e.mode], { class: "note" }));
        const status = el("td", e.status === "ended" && e.winner ? `ended: ${e.winner} won` : e.status, { class: "status" });
        const actions = el("td", undefined, { class: "actions" });
        const [label, accessibleName] = e.status === "draft" ? ["Open", "Open experiment"] : ["Results", "Results of experiment"];
        actions.append(button(label, () => void openExperiment(e.id), `${accessibleName} ${e.name}`));
        for (const action of ACTIONS[e.status]) {
          const verb = { start: "Start", stop: "Stop", delete: "Delete" }[action];
          actions.append(
            " ",
            button(verb, () => void act(e, action), `${verb} experiment ${e.name}`),
          );
        }
        row.append(name, el("td", describeScope(e.scope)), el("td", describeVariants(e)), status, actions);
        return row;
      }),
    );
  $("experiments-empty").hidden = experiments.length > 0;
  if (shown) {
    const current = experiments.find((e) => e.id === shown!.id);
    if (current) await showDetail(current);
    else closeDetail();
  }
}

async function act(e: Experiment, action: "start" | "stop" | "delete"): Promise<void> {
  if (action === "delete" && !confirm(`Delete experiment ${e.name} and its counts?`)) return;
  try {
    if (action === "delete") {
      await api<Deleted>("DELETE", experimentPath(e.id));
      if (shown?.id === e.id) closeDetail();
    } else await api<Experiment>("POST", experimentPath(e.id, `/${action}`));
    setStatus(`Experiment ${e.name} ${{ start: "started", stop: "stopped", delete: "deleted" }[action]}.`);
  } catch (error) {
    setStatus(`Experiment ${e.name} not ${action === "stop" ? "stopped" : `${action}ed`}: ${(error as Error).message}`);
  }
  await loadExperiments();
}

/* ---------- the editor ---------- */

let variantSerial = 0;

/** A select of "the store's own" and on/off, for a boolean setting a variant may override. */
function tristate(id: string, label: string): HTMLParagraphElement {
  const field = el("p", undefined, { class: "field" });
  const choice = el("select", undefined, { id });
  choice.append(el("option", "the store's own", { value: "" }), el("option", "on", { value: "on" }), el("option", "off", { value: "off" }));
  field.append(el("label", label, { for: id }), " ", choice);
  return field;
}

function textField(id: string, label: string, attrs: Record<string, string> = {}): HTMLParagraphElement {
  const field = el("p", undefined, { class: "field" });
  field.append(el("label", label, { for: id }), " ", el("input", undefined, { id, spellcheck: "false", ...attrs }));
  return field;
}

/** Numbers the variants' legends again, the first as the control, and allows removing only past two. */
function renumberVariants(): void {
  const sets = [...$("variants").querySelectorAll<HTMLFieldSetElement>("fieldset")];
  sets.forEach((set, i) => {
    set.querySelector("legend")!.textContent = i === 0 ? "Variant 1 (the control)" : `Variant ${i + 1}`;
    set.querySelector<HTMLButtonElement>("button.remove")!.hidden = sets.length <= 2;
  });
  $<HTMLButtonElement>("add-variant").disabled = sets.length >= MAX_VARIANTS;
}

function addVariant(name: string, share: number): void {
  const n = ++variantSerial;
  const set = el("fieldset", undefined, { class: "variant", "data-serial": String(n) });
  const remove = el("button", "Remove this variant", { type: "button", class: "small remove" });
  remove.addEventListener("click", () => {
    set.remove();
    renumberVariants();
  });
  const other = el("p", undefined, { class: "field wide" });
  other.append(
    el("label", "Other overrides (JSON)", { for: `v${n}-json` }),
    " ",
    el("textarea", undefined, { id: `v${n}-json`, rows: "3", spellcheck: "false", placeholder: '{ "settings": { "newnessDays": 14 } }' }),
  );
  const columns = el("div", undefined, { class: "columns" });
  const left = el("div");
  left.append(
    textField(`v${n}-name`, "Name", { required: "", maxlength: "100", value: name }),
    textField(`v${n}-share`, "Share (%)", { type: "number", min: "0", max: "100", step: "1", required: "", value: String(share) }),
    tristate(`v${n}-behaviour`, "Behaviour ranking"),
    tristate(`v${n}-personalisation`, "Personalisation"),
  );
  const right = el("div");
  right.append(
    textField(`v${n}-rules`, "Rules in force (ids)", { maxlength: "6500", placeholder: "rule-a, rule-b" }),
    textField(`v${n}-synonyms`, "Synonym sets in force (ids)", { maxlength: "6500", placeholder: "knitwear" }),
    other,
  );
  columns.append(left, right);
  set.append(el("legend"), columns, remove);
  $("variants").append(set);
  renumberVariants();
}

/** A variant as the form says it; the JSON field's overrides under what the form's own fields set. */
function variantOf(set: HTMLFieldSetElement, index: number): ExperimentVariant {
  const n = set.dataset.serial!;
  const value = (field: string) => input(`v${n}-${field}`).value.trim();
  const json = $<HTMLTextAreaElement>(`v${n}-json`).value.trim();
  let overrides: VariantOverrides = {};
  if (json) {
    const parsed = (() => {
      try {
        return JSON.parse(json) as unknown;
      } catch {
        return undefined;
      }
    })();
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
      throw new Error(`Variant ${index + 1}: the other overrides must be a JSON object.`);
    overrides = parsed as VariantOverrides;
  }
  const settings: VariantSettings = { ...overrides.settings };
  for (const [field, key] of [
    ["behaviour", "behaviourRanking"],
    ["personalisation", "personalisation"],
  ] as const) {
    const choice = select(`v${n}-${field}`).value;
    if (choice) settings[key] = choice === "on";
  }
  if (Object.keys(settings).length) overrides = { ...overrides, settings };
  const rules = list(value("rules"));
  if (rules.length) overrides = { ...overrides, rules };
  const synonymSets = list(value("synonyms"));
  if (synonymSets.length) overrides = { ...overrides, synonymSets };
  return {
    name: value("name"),
    share: input(`v${n}-share`).valueAsNumber,
    ...(Object.keys(overrides).length ? { overrides } : {}),
  };
}

function scopeOf(): ExperimentScope {
  const type = select("scope-type").value;
  if (type === "query")
    return {
      type,
      pattern: input("scope-pattern").value.trim(),
      anchoring: select("scope-anchoring").value as "is" | "startsWith" | "contains",
    };
  if (type === "collection") return { type, collection: input("scope-collection").value.trim() };
  return { type: "all" };
}

function syncScope(): void {
  const type = select("scope-type").value;
  $("scope-query-fields").hidden = type !== "query";
  $("scope-collection-field").hidden = type !== "collection";
}

function openEditor(): void {
  $<HTMLFormElement>("experiment-form").reset();
  $("variants").replaceChildren();
  addVariant("control", 50);
  addVariant("variant", 50);
  syncScope();
  $("experiment-error").textContent = "";
  $("editor").hidden = false;
  $("editor-title").focus();
}

function closeEditor(): void {
  $("editor").hidden = true;
}

async function createExperiment(): Promise<void> {
  const error = $("experiment-error");
  let body: ExperimentBody;
  try {
    body = {
      name: input("experiment-name").value.trim(),
      scope: scopeOf(),
      mode: select("experiment-mode").value as ExperimentBody["mode"],
      variants: [...$("variants").querySelectorAll<HTMLFieldSetElement>("fieldset")].map(variantOf),
    };
  } catch (e) {
    error.textContent = (e as Error).message;
    return;
  }
  try {
    const created = await api<Experiment>("POST", "/experiments", body);
    error.textContent = "";
    closeEditor();
    setStatus(`Experiment ${created.name} created as a draft.`);
    await loadExperiments();
    await showDetail(created);
    $("detail-title").focus();
  } catch (e) {
    error.textContent = `Not created: ${(e as Error).message}`;
  }
}

/* ---------- one experiment: sample size, results, the end ---------- */

async function openExperiment(id: string): Promise<void> {
  try {
    await showDetail(await api<Experiment>("GET", experimentPath(id)));
    $("detail-title").focus();
  } catch (error) {
    setStatus(`Experiment not opened: ${(error as Error).message}`);
  }
}

function closeDetail(): void {
  shown = null;
  $("detail").hidden = true;
}

async function showDetail(e: Experiment): Promise<void> {
  const changed = shown?.id !== e.id;
  shown = e;
  $("detail").hidden = false;
  $("detail-title").textContent = e.name;
  const started = e.startedAt ? `, counting since ${new Date(e.startedAt).toLocaleString()}` : "";
  const until = e.endedAt ? ` until ${new Date(e.endedAt).toLocaleString()}` : "";
  $("detail-summary").textContent =
    `${e.status === "ended" && e.winner ? `Ended: ${e.winner} won` : `Status: ${e.status}`}${started}${until}. ` +
    `Covers ${describeScope(e.scope)}. Variants: ${describeVariants(e)}.`;
  $("sample-size").hidden = e.status !== "draft";
  if (changed) $("sample-size-answer").textContent = "";
  $("end").hidden = e.status !== "running" && e.status !== "stopped";
  select("winner").replaceChildren(...e.variants.map((v) => el("option", v.name, { value: v.name })));
  $("results").hidden = e.status === "draft";
  if (e.status !== "draft") await loadResults();
}

async function estimate(): Promise<void> {
  const answer = $("sample-size-answer");
  const q = new URLSearchParams({
    baselineRate: String(input("baseline-rate").valueAsNumber / 100),
    minimumDetectableLift: String(input("lift").valueAsNumber / 100),
    dailyShoppers: String(input("daily-shoppers").valueAsNumber),
  });
  try {
    const s = await api<SampleSizeEstimate>("GET", experimentPath(shown!.id, `/sample-size?${q}`));
    answer.textContent = `${count(s.shoppersPerVariant)} shoppers per variant, ${count(s.shoppers)} in all: about ${count(s.days)} day${s.days === 1 ? "" : "s"}.`;
  } catch (error) {
    answer.textContent = `No estimate: ${(error as Error).message}`;
  }
}

/** Against the control: the difference, its interval, the p-value and the verdict. */
const versus = (vs: Comparison, show: (n: number) => string) =>
  `${show(vs.difference)} (${show(vs.interval.low)} to ${show(vs.interval.high)}), ${pValue(vs.pValue)}, ${vs.significant ? "significant" : "not significant"}`;

/** A figure and its interval, and its comparison with the control when there is one, as lines of a cell. */
function figureCell(className: string, value: string, interval: string, vs: Comparison | null, show: (n: number) => string): HTMLElement {
  const cell = el("td", undefined, { class: className });
  cell.append(el("strong", value), el("br"), el("span", interval, { class: "note" }));
  if (vs) cell.append(el("br"), el("span", versus(vs, show), { class: vs.significant ? "vs significant" : "vs" }));
  return cell;
}

const rateCell = (className: string, r: RateResult) =>
  figureCell(className, `${percent(r.rate)} (${count(r.shoppers)})`, range(r.interval, percent), r.vsControl, points);

async function loadResults(): Promise<void> {
  const id = shown!.id;
  let r: ExperimentResults;
  try {
    r = await api<ExperimentResults>("GET", experimentPath(id, "/results"));
  } catch (error) {
    setStatus(`Results not read: ${(error as Error).message}`);
    return;
  }
  if (shown?.id !== id) return;
  $("results-mode").textContent = `Mode that ran: ${MODES[r.experiment.mode]}. Differences are significant when p < ${r.alpha}.`;
  $("results-table")
    .querySelector("tbody")!
    .replaceChildren(
      ...r.variants.map((v) => {
        const row = el("tr", undefined, { "data-variant": v.name });
        const name = el("th", undefined, { scope: "row" });
        name.append(el("strong", v.name), el("br"), el("span", `${v.share}%${v.control ? ", the control" : ""}`, { class: "note" }));
        row.append(
          name,
          el("td", count(v.shoppers), { class: "shoppers" }),
          el("td", count(v.searches), { class: "searches" }),
          rateCell("click-through", v.clickThrough),
          rateCell("add-to-cart", v.addToCart),
          rateCell("conversion", v.conversion),
        );
        return row;
      }),
    );
  const revenueRows = r.variants.flatMap((v) =>
    Object.entries(v.revenue).map(([currency, m]) => {
      const row = el("tr", undefined, { "data-variant": v.name, "data-currency": currency });
      const capped = r.revenueCap[currency] === undefined ? "" : `, each shopper capped at ${money(r.revenueCap[currency]!)}`;
      row.append(
        el("th", v.name, { scope: "row" }),
        el("td", currency),
        el("td", count(m.shoppers)),
        figureCell("per-shopper", money(m.perShopper), `${range(m.interval, money)}${capped}`, null, money),
        el("td", m.vsControl ? versus(m.vsControl, signedMoney) : "—", { class: "vs-control" }),
      );
      return row;
    }),
  );
  $("revenue-table")
    .querySelector("tbody")!
    .replaceChildren(...revenueRows);
  $("revenue-table").hidden = revenueRows.length === 0;
  $("revenue-empty").hidden = revenueRows.length > 0;
  const x = r.excluded;
  $("excluded").replaceChildren(
    el("li", `${count(x.bots)} shopper${x.bots === 1 ? "" : "s"} whose browser said it was a crawler, monitor or script (bots)`),
    el(
      "li",
      `${count(x.tooManyEvents)} shopper${x.tooManyEvents === 1 ? "" : "s"} with more events than a person sends (scripts, load tests)`,
    ),
    el("li", `${count(x.emptySearches)} search${x.emptySearches === 1 ? "" : "es"} that found nothing, not counted as searches`),
  );
}

async function endExperiment(): Promise<void> {
  const e = shown!;
  const winner = select("winner").value;
  if (!confirm(`End ${e.name} with ${winner} as the winner? Its settings become the store's.`)) return;
  try {
    const report = await api<ExperimentEndReport>("POST", experimentPath(e.id, "/end"), { winner });
    const applied = report.appliedSettings.length ? `Settings applied: ${report.appliedSettings.join(", ")}.` : "No settings to apply.";
    const review = [...report.review.rules.map((r) => `rule ${r}`), ...report.review.synonymSets.map((s) => `synonym set ${s}`)];
    // The end section goes with the running experiment: what the end did is said in the page's status line.
    setStatus(
      `Experiment ${e.name} ended: ${winner} won. ${applied}${review.length ? ` Only losing variants used ${review.join(", ")}: review them.` : ""}`,
    );
    await loadExperiments();
  } catch (error) {
    setStatus(`Experiment ${e.name} not ended: ${(error as Error).message}`);
  }
}

function start(): void {
  $("new-experiment").addEventListener("click", openEditor);
  $("editor-close").addEventListener("click", closeEditor);
  $("add-variant").addEventListener("click", () => addVariant(`variant ${$("variants").children.length + 1}`, 0));
  select("scope-type").addEventListener("change", syncScope);
  const onSubmit = (id: string, run: () => Promise<void>) =>
    $(id).addEventListener("submit", (e) => {
      e.preventDefault();
      void run();
    });
  onSubmit("experiment-form", createExperiment);
  onSubmit("sample-size-form", estimate);
  onSubmit("end-form", endExperiment);
  $("results-refresh").addEventListener("click", () => void loadResults());
  startStaffSession({
    storageKey: CREDENTIALS,
    workspace: $("workspace"),
    load: async (c) => {
      signedIn = c;
      await loadExperiments();
    },
    signedOut: () => {
      closeDetail();
      closeEditor();
      $("experiments-table").querySelector("tbody")!.replaceChildren();
    },
  });
}

start();
