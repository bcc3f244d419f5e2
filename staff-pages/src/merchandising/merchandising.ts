/*
 * The merchandising page's script (served transpiled as /merchandising/assets/merchandising.js): store staff list,
 * create, edit, enable, disable and delete query rules and synonyms, pick products to pin or hide by searching the
 * catalog, preview a draft rule's effect beside the live search, and import Algolia or Typesense exports. It signs
 * in with the store id and admin key, kept in sessionStorage only and sent as headers, never in a URL. Catalog
 * text is only ever set as textContent.
 */

import type {
  ImportReport,
  Rule,
  RuleBody,
  RuleCondition,
  RuleList,
  RulePreviewRequest,
  SearchProduct,
  SearchResponse,
  StoredProduct,
  SynonymBody,
  SynonymImportReport,
  SynonymList,
  SynonymProposal,
  SynonymProposals,
  SynonymSet,
} from "@storefront-search/contract";
import { byId as $, el } from "../shell/dom.ts";
import { adminApi, startStaffSession, type Credentials } from "../shell/staff-session.ts";

type Json = Record<string, unknown>;

/** What the picker shows of a product: the search answer's own fields (the wire types are the contract's). */
type FoundProduct = Pick<SearchProduct, "productId" | "name" | "designer">;

const CREDENTIALS = "sfs-merchandising-credentials";
const MAX_AMOUNT = 5;
const PREVIEW_SIZE = 12;

const input = (id: string) => $<HTMLInputElement>(id);
const select = (id: string) => $<HTMLSelectElement>(id);
/** The store signed in to, as the session's load last gave it. */
let signedIn: Credentials | null = null;

const api = <T = Json>(method: string, path: string, body?: unknown) => adminApi<T>(signedIn!, method, path, body);
const putRule = (id: string, body: RuleBody) => api<Rule>("PUT", `/rules/${encodeURIComponent(id)}`, body);
const putSynonyms = (id: string, body: SynonymBody) => api<SynonymSet>("PUT", `/synonyms/${encodeURIComponent(id)}`, body);

function button(label: string, onClick: () => void, accessibleName?: string): HTMLButtonElement {
  const b = el("button", label, { type: "button", class: "small" });
  if (accessibleName) b.setAttribute("aria-label", accessibleName);
  b.addEventListener("click", onClick);
  return b;
}

function setStatus(text: string): void {
  $("status").textContent = text;
}

/** Comma-separated text as its trimmed, non-empty parts. */
const list = (text: string) =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/* ---------- dates: the inputs show local time, the API takes ISO 8601 ---------- */

function toLocalInput(iso: string | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

function fromLocalInput(value: string): string | undefined {
  if (!value) return undefined;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/* ---------- rules: the list ---------- */

function describeWhen(r: RuleBody): string {
  const words: Record<string, string> = { is: "query is", contains: "query contains", startsWith: "query starts with" };
  return r.conditions
    .map((c) =>
      [
        c.pattern !== undefined ? `${words[c.anchoring ?? "is"]} “${c.pattern}”` : "",
        c.collection ? `collection ${c.collection}` : "",
        c.facet ? `facet ${c.facet}` : "",
      ]
        .filter(Boolean)
        .join(" and "),
    )
    .join("; ");
}

function describeDoes(r: RuleBody): string {
  const q = r.consequence;
  const parts: string[] = [];
  if (q.pins?.length) parts.push(`pins ${q.pins.length}`);
  if (q.hide?.length) parts.push(`hides ${q.hide.length}`);
  for (const b of q.boost ?? []) parts.push(`boosts ${b.filter} (${b.amount})`);
  for (const b of q.bury ?? []) parts.push(`buries ${b.filter} (${b.amount})`);
  if (q.filters?.length) parts.push(`filters ${q.filters.join(", ")}`);
  if (q.removeWords?.length) parts.push(`removes ${q.removeWords.join(", ")}`);
  for (const w of q.replaceWords ?? []) parts.push(`${w.word} → ${w.with}`);
  if (q.redirect) parts.push(`sends to ${q.redirect}`);
  const banners = (q.userData ?? []).filter((d) => d.type === "banner").length;
  if (banners) parts.push(`banner`);
  else if (q.userData?.length) parts.push(`custom data`);
  return parts.join("; ");
}

function liveWindow(r: Rule): string {
  const now = Date.now();
  if (r.from && Date.parse(r.from) > now) return `from ${new Date(r.from).toLocaleString()}`;
  if (r.until && Date.parse(r.until) <= now) return `ended ${new Date(r.until).toLocaleString()}`;
  return r.until ? `until ${new Date(r.until).toLocaleString()}` : "yes";
}

/** Every item of a paged list (GET /rules, GET /synonyms), 1,000 a page. */
async function everything<P extends { total: number }, T>(path: string, items: (page: P) => T[]): Promise<T[]> {
  const all: T[] = [];
  for (let from = 0; ; from += 1000) {
    const answer = await api<P>("GET", `${path}?from=${from}&limit=1000`);
    const page = items(answer);
    all.push(...page);
    if (page.length < 1000 || all.length >= answer.total) return all;
  }
}

async function loadRules(): Promise<void> {
  const rules = await everything("/rules", (page: RuleList) => page.rules);
  const body = $("rules-table").querySelector("tbody")!;
  body.replaceChildren(
    ...rules.map((r) => {
      const row = el("tr", undefined, { "data-rule": r.id });
      const name = el("td");
      name.append(el("strong", r.id));
      if (r.description) name.append(el("br"), el("span", r.description, { class: "note" }));
      const enabled = el("input", undefined, { type: "checkbox", "aria-label": `Rule ${r.id} enabled` });
      enabled.checked = r.enabled;
      enabled.addEventListener("change", () => void toggleRule(r, enabled.checked));
      const live = el("td");
      live.append(enabled, " ", el("span", r.enabled ? liveWindow(r) : "off"));
      const actions = el("td", undefined, { class: "actions" });
      actions.append(
        button("Edit", () => showRule(r), `Edit rule ${r.id}`),
        button("Delete", () => void deleteRule(r.id), `Delete rule ${r.id}`),
      );
      row.append(name, el("td", describeWhen(r)), el("td", describeDoes(r)), live, actions);
      return row;
    }),
  );
  $("rules-empty").hidden = rules.length > 0;
}

/** The stored body of a rule (what PUT takes), without what the service adds. */
function bodyOf(r: Rule): RuleBody {
  const { id: _id, updatedAt: _updatedAt, ...body } = r;
  return body;
}

async function toggleRule(r: Rule, enabled: boolean): Promise<void> {
  try {
    await putRule(r.id, { ...bodyOf(r), enabled });
    setStatus(`Rule ${r.id} ${enabled ? "enabled" : "disabled"}.`);
  } catch (error) {
    setStatus(`Rule ${r.id} not changed: ${(error as Error).message}`);
  }
  await loadRules();
}

async function deleteRule(id: string): Promise<void> {
  if (!confirm(`Delete rule ${id}?`)) return;
  try {
    await api("DELETE", `/rules/${encodeURIComponent(id)}`);
    setStatus(`Rule ${id} deleted.`);
    if (input("rule-id").value === id) closeEditor();
  } catch (error) {
    setStatus(`Rule ${id} not deleted: ${(error as Error).message}`);
  }
  await loadRules();
}

/* ---------- rules: the editor ---------- */

/** The products being pinned (in position order) and hidden, by id, with a name to show. */
let pins: { productId: string; position: number; name: string }[] = [];
let hides: { productId: string; name: string }[] = [];
/** userData entries the form does not edit (anything but the first banner), kept as they are. */
let otherUserData: Json[] = [];
/** Conditions the form does not show (a second query condition, …), kept as they are. */
let otherConditions: RuleCondition[] = [];

function renderPicked(): void {
  pins.sort((a, b) => a.position - b.position);
  $("pins").replaceChildren(
    ...pins.map((p) => {
      const li = el("li");
      const position = el("input", undefined, {
        type: "number",
        min: "1",
        max: "200",
        "aria-label": `Position of ${p.name}`,
        class: "position",
      });
      position.value = String(p.position);
      position.style.width = "4.5rem";
      position.addEventListener("change", () => {
        p.position = Math.min(200, Math.max(1, Math.round(Number(position.value)) || 1));
        renderPicked();
      });
      li.append(
        position,
        " ",
        el("span", `${p.name} (${p.productId})`),
        button("Remove", () => ((pins = pins.filter((x) => x !== p)), renderPicked()), `Remove ${p.name} from the pins`),
      );
      return li;
    }),
  );
  $("hides").replaceChildren(
    ...hides.map((h) => {
      const li = el("li");
      li.append(
        el("span", `${h.name} (${h.productId})`),
        button("Remove", () => ((hides = hides.filter((x) => x !== h)), renderPicked()), `Remove ${h.name} from the hidden`),
      );
      return li;
    }),
  );
}

function amountOptions(id: string): void {
  select(id).replaceChildren(...Array.from({ length: MAX_AMOUNT }, (_, i) => new Option(`by ${i + 1}`, String(i + 1))));
}

function showRule(r: Rule | null): void {
  const body: RuleBody = r ? bodyOf(r) : { conditions: [], consequence: {}, enabled: true };
  input("rule-id").value = r?.id ?? "";
  input("rule-id").readOnly = !!r;
  input("rule-description").value = body.description ?? "";
  input("rule-enabled").checked = body.enabled !== false;
  input("rule-from").value = toLocalInput(body.from);
  input("rule-until").value = toLocalInput(body.until);
  const query = body.conditions.find((c) => c.pattern !== undefined && !c.collection && !c.facet);
  const collection = body.conditions.find((c) => c.collection && c.pattern === undefined && !c.facet);
  const facet = body.conditions.find((c) => c.facet && c.pattern === undefined && !c.collection);
  otherConditions = body.conditions.filter((c) => c !== query && c !== collection && c !== facet);
  select("rule-anchoring").value = query?.anchoring ?? "";
  input("rule-pattern").value = query?.pattern ?? "";
  input("rule-collection").value = collection?.collection ?? "";
  input("rule-facet").value = facet?.facet ?? "";
  const q = body.consequence;
  pins = (q.pins ?? []).map((p) => ({ ...p, name: p.productId }));
  hides = (q.hide ?? []).map((id) => ({ productId: id, name: id }));
  for (const [kind, list] of [
    ["boost", q.boost],
    ["bury", q.bury],
  ] as const) {
    input(`rule-${kind}`).value = list?.[0]?.filter ?? "";
    select(`rule-${kind}-amount`).value = String(list?.[0]?.amount ?? 1);
  }
  input("rule-filters").value = (q.filters ?? []).join(", ");
  input("rule-remove").value = (q.removeWords ?? []).join(", ");
  input("rule-replace").value = (q.replaceWords ?? []).map((w) => `${w.word}=${w.with}`).join(", ");
  input("rule-redirect").value = q.redirect ?? "";
  const banner = (q.userData ?? []).find((d) => d.type === "banner");
  otherUserData = (q.userData ?? []).filter((d) => d !== banner);
  for (const f of ["title", "text", "image", "link"])
    input(`banner-${f}`).value = typeof banner?.[f] === "string" ? (banner[f] as string) : "";
  $("rule-error").textContent = "";
  renderPicked();
  void nameProducts();
  $("rule-editor").hidden = false;
  $("rule-editor-title").textContent = r ? `Rule ${r.id}` : "New rule";
  $("rule-editor-title").focus();
  input("preview-query").value = query?.pattern ?? "";
  $("preview-live").replaceChildren();
  $("preview-draft").replaceChildren();
}

/** Pinned and hidden products shown by name, read from the catalog (a deleted product keeps its id). */
async function nameProducts(): Promise<void> {
  const ids = [...new Set([...pins.map((p) => p.productId), ...hides.map((h) => h.productId)])];
  await Promise.all(
    ids.slice(0, 100).map(async (id) => {
      try {
        const { product } = await api<StoredProduct>("GET", `/products/${encodeURIComponent(id)}`);
        for (const x of [...pins, ...hides]) if (x.productId === id && product.name) x.name = product.name;
      } catch {
        // Not in the catalog any more: the rule keeps the id, and so does the list.
      }
    }),
  );
  renderPicked();
}

function closeEditor(): void {
  $("rule-editor").hidden = true;
}

/** The rule the form describes. */
function draftRule(): RuleBody {
  const conditions: RuleCondition[] = [...otherConditions];
  const anchoring = select("rule-anchoring").value as RuleCondition["anchoring"] | "";
  const pattern = input("rule-pattern").value.trim();
  if (anchoring && pattern) conditions.push({ pattern, anchoring });
  const collection = input("rule-collection").value.trim();
  if (collection) conditions.push({ collection });
  const facet = input("rule-facet").value.trim();
  if (facet) conditions.push({ facet });
  const consequence: RuleBody["consequence"] = {};
  if (pins.length) consequence.pins = pins.map(({ productId, position }) => ({ productId, position }));
  if (hides.length) consequence.hide = hides.map((h) => h.productId);
  for (const kind of ["boost", "bury"] as const) {
    const filter = input(`rule-${kind}`).value.trim();
    if (filter) consequence[kind] = [{ filter, amount: Number(select(`rule-${kind}-amount`).value) }];
  }
  const filters = list(input("rule-filters").value);
  if (filters.length) consequence.filters = filters;
  const remove = list(input("rule-remove").value);
  if (remove.length) consequence.removeWords = remove;
  const replace = list(input("rule-replace").value).map((pair) => {
    const at = pair.indexOf("=");
    return at < 0 ? { word: pair, with: "" } : { word: pair.slice(0, at).trim(), with: pair.slice(at + 1).trim() };
  });
  if (replace.length) consequence.replaceWords = replace;
  const redirect = input("rule-redirect").value.trim();
  if (redirect) consequence.redirect = redirect;
  const banner: Json = {};
  for (const f of ["title", "text", "image", "link"]) {
    const v = input(`banner-${f}`).value.trim();
    if (v) banner[f] = v;
  }
  const userData = [...(Object.keys(banner).length ? [{ type: "banner", ...banner }] : []), ...otherUserData];
  if (userData.length) consequence.userData = userData;
  const rule: RuleBody = { conditions, consequence, enabled: input("rule-enabled").checked };
  const description = input("rule-description").value.trim();
  if (description) rule.description = description;
  const from = fromLocalInput(input("rule-from").value);
  const until = fromLocalInput(input("rule-until").value);
  if (from) rule.from = from;
  if (until) rule.until = until;
  return rule;
}

async function saveRule(): Promise<void> {
  const id = input("rule-id").value.trim();
  if (!id) return void ($("rule-error").textContent = "The rule needs an id.");
  try {
    await putRule(id, draftRule());
    $("rule-error").textContent = "";
    setStatus(`Rule ${id} saved.`);
    input("rule-id").readOnly = true;
    $("rule-editor-title").textContent = `Rule ${id}`;
    await loadRules();
  } catch (error) {
    $("rule-error").textContent = `Not saved: ${(error as Error).message}`;
  }
}

/* ---------- the product picker ---------- */

let pickerTimer: ReturnType<typeof setTimeout> | undefined;
let pickerSeq = 0;

async function findProducts(text: string): Promise<void> {
  const seq = ++pickerSeq;
  const out = $("picker-results");
  if (!text.trim()) return void out.replaceChildren();
  try {
    const found = await api<{ products: FoundProduct[] }>("GET", `/search?${new URLSearchParams({ query: text, pageSize: "12" })}`);
    if (seq !== pickerSeq) return;
    out.replaceChildren(
      ...found.products.map((p) => {
        const li = el("li");
        const name = p.name ?? p.productId;
        li.append(
          el("span", `${name}${p.designer ? ` · ${p.designer}` : ""} (${p.productId})`),
          button(
            "Pin",
            () => {
              if (!pins.some((x) => x.productId === p.productId)) pins.push({ productId: p.productId, position: nextPosition(), name });
              hides = hides.filter((h) => h.productId !== p.productId);
              renderPicked();
            },
            `Pin ${name}`,
          ),
          button(
            "Hide",
            () => {
              if (!hides.some((x) => x.productId === p.productId)) hides.push({ productId: p.productId, name });
              pins = pins.filter((x) => x.productId !== p.productId);
              renderPicked();
            },
            `Hide ${name}`,
          ),
        );
        return li;
      }),
    );
    if (!found.products.length) out.replaceChildren(el("li", "No product found."));
  } catch (error) {
    if (seq === pickerSeq) out.replaceChildren(el("li", (error as Error).message));
  }
}

/** The first position no pin takes. */
function nextPosition(): number {
  const taken = new Set(pins.map((p) => p.position));
  let n = 1;
  while (taken.has(n)) n++;
  return n;
}

/* ---------- the preview ---------- */

function renderPreview(target: HTMLElement, answer: SearchResponse): void {
  const parts: HTMLElement[] = [];
  if (answer.redirect) parts.push(el("p", `Sends the shopper to ${answer.redirect}`, { class: "redirect" }));
  for (const d of answer.userData ?? []) {
    if (d.type === "banner")
      parts.push(el("p", `Banner: ${String(d.title ?? "")}${d.text ? ` · ${String(d.text)}` : ""}`, { class: "banner" }));
  }
  parts.push(el("p", `${answer.totalProductCount.toLocaleString()} products`, { class: "note" }));
  const pinned = new Set(answer.pinnedProductIds ?? []);
  const ol = el("ol");
  for (const p of answer.products) {
    const li = el("li", `${p.name ?? p.productId} (${p.productId})`);
    if (pinned.has(p.productId)) {
      li.className = "pinned";
      li.append(el("span", "pinned", { class: "tag" }));
    }
    ol.append(li);
  }
  parts.push(ol);
  target.replaceChildren(...parts);
}

async function preview(): Promise<void> {
  const query = input("preview-query").value.trim();
  const search = { query, pageSize: PREVIEW_SIZE, returnFacets: false };
  const id = input("rule-id").value.trim() || "draft";
  const live = $("preview-live");
  const draft = $("preview-draft");
  const params = new URLSearchParams({ query, pageSize: String(PREVIEW_SIZE) });
  const [now, withRule] = await Promise.allSettled([
    api<SearchResponse>("GET", `/search?${params}`),
    api<SearchResponse>("POST", "/rules/preview", { id, rule: draftRule(), search } satisfies RulePreviewRequest),
  ]);
  if (now.status === "fulfilled") renderPreview(live, now.value);
  else live.replaceChildren(el("p", (now.reason as Error).message, { class: "error" }));
  if (withRule.status === "fulfilled") renderPreview(draft, withRule.value);
  else draft.replaceChildren(el("p", (withRule.reason as Error).message, { class: "error" }));
}

/* ---------- synonyms ---------- */

async function loadSynonyms(): Promise<void> {
  const all = await everything("/synonyms", (page: SynonymList) => page.synonyms);
  $("synonyms-table")
    .querySelector("tbody")!
    .replaceChildren(
      ...all.map((s) => {
        const row = el("tr", undefined, { "data-synonym": s.id });
        const words = s.type === "oneWay" ? `${s.input} → ${s.synonyms.join(", ")}` : s.synonyms.join(" = ");
        const actions = el("td", undefined, { class: "actions" });
        actions.append(
          button(
            "Edit",
            () => {
              input("synonym-id").value = s.id;
              select("synonym-kind").value = s.type;
              input("synonym-input").value = s.input ?? "";
              input("synonym-words").value = s.synonyms.join(", ");
              syncSynonymKind();
              input("synonym-words").focus();
            },
            `Edit synonyms ${s.id}`,
          ),
          button("Delete", () => void deleteSynonyms(s.id), `Delete synonyms ${s.id}`),
        );
        row.append(el("td", s.id), el("td", words), actions);
        return row;
      }),
    );
  $("synonyms-empty").hidden = all.length > 0;
}

function syncSynonymKind(): void {
  $("synonym-input-field").hidden = select("synonym-kind").value !== "oneWay";
}

async function saveSynonyms(): Promise<void> {
  const id = input("synonym-id").value.trim();
  const oneWay = select("synonym-kind").value === "oneWay";
  const body: SynonymBody = {
    ...(oneWay ? { input: input("synonym-input").value.trim() } : {}),
    synonyms: list(input("synonym-words").value),
  };
  try {
    await putSynonyms(id, body);
    $("synonym-error").textContent = "";
    setStatus(`Synonyms ${id} saved.`);
    $<HTMLFormElement>("synonym-form").reset();
    syncSynonymKind();
    await loadSynonyms();
  } catch (error) {
    $("synonym-error").textContent = `Not saved: ${(error as Error).message}`;
  }
}

async function deleteSynonyms(id: string): Promise<void> {
  if (!confirm(`Delete synonyms ${id}?`)) return;
  try {
    await api("DELETE", `/synonyms/${encodeURIComponent(id)}`);
    setStatus(`Synonyms ${id} deleted.`);
  } catch (error) {
    setStatus(`Synonyms ${id} not deleted: ${(error as Error).message}`);
  }
  await loadSynonyms();
}

/* ---------- proposed synonyms ---------- */

async function loadProposals(): Promise<void> {
  const { proposals } = await api<SynonymProposals>("GET", "/synonym-proposals");
  $("proposals-table")
    .querySelector("tbody")!
    .replaceChildren(
      ...proposals.map((p) => {
        const row = el("tr", undefined, { "data-proposal": p.id });
        const e = p.evidence;
        const said =
          e.source === "import"
            ? `${e.searches} searches under the previous provider; finds nothing here`
            : `${e.searches} searches: ${e.noResults} found nothing${e.noClicks ? `, ${e.noClicks} clicked nothing` : ""}`;
        const actions = el("td", undefined, { class: "actions" });
        actions.append(button("Accept", () => void acceptProposal(p), `Accept ${p.input} → ${p.synonyms.join(", ")}`));
        row.append(
          el("td", p.input),
          el("td", p.synonyms.map((w, i) => `${w} (${Math.round((e.closeness[i] ?? 0) * 100)}%)`).join(", ")),
          el("td", said),
          actions,
        );
        return row;
      }),
    );
  $("proposals-empty").hidden = proposals.length > 0;
}

async function acceptProposal(p: SynonymProposal): Promise<void> {
  try {
    await putSynonyms(p.id, { input: p.input, synonyms: p.synonyms });
    setStatus(`${p.input} now finds ${p.synonyms.join(", ")}.`);
  } catch (error) {
    setStatus(`${p.input} not accepted: ${(error as Error).message}`);
  }
  await Promise.all([loadSynonyms(), loadProposals()]);
}

/* ---------- import ---------- */

async function importFile(): Promise<void> {
  const file = input("import-file").files?.[0];
  const report = $("import-report");
  if (!file) return void report.replaceChildren(el("li", "Choose a JSON file first."));
  const [what, format] = select("import-kind").value.split(":") as [string, string];
  let parsed: unknown;
  try {
    parsed = JSON.parse(await file.text());
  } catch {
    return void report.replaceChildren(el("li", `${file.name} is not JSON.`));
  }
  try {
    const answer = await api<ImportReport | SynonymImportReport>("POST", `/${what}/import?format=${format}`, parsed);
    report.replaceChildren(
      el("li", `${answer.imported} imported, ${answer.errors.length} not imported.`),
      ...answer.errors.slice(0, 50).map((e) => el("li", `Item ${e.index}${e.id ? ` (${e.id})` : ""}: ${e.message}`)),
    );
    await (what === "rules" ? loadRules() : loadSynonyms());
  } catch (error) {
    report.replaceChildren(el("li", `Not imported: ${(error as Error).message}`));
  }
}

function start(): void {
  amountOptions("rule-boost-amount");
  amountOptions("rule-bury-amount");
  $("new-rule").addEventListener("click", () => showRule(null));
  $("rule-cancel").addEventListener("click", closeEditor);
  $("rule-form").addEventListener("submit", (e) => {
    e.preventDefault();
    void saveRule();
  });
  $("preview-form").addEventListener("submit", (e) => {
    e.preventDefault();
    void preview();
  });
  input("picker-query").addEventListener("input", () => {
    clearTimeout(pickerTimer);
    pickerTimer = setTimeout(() => void findProducts(input("picker-query").value), 200);
  });
  select("synonym-kind").addEventListener("change", syncSynonymKind);
  $("synonym-form").addEventListener("submit", (e) => {
    e.preventDefault();
    void saveSynonyms();
  });
  $("import-form").addEventListener("submit", (e) => {
    e.preventDefault();
    void importFile();
  });
  startStaffSession({
    storageKey: CREDENTIALS,
    workspace: $("workspace"),
    load: async (c) => {
      signedIn = c;
      await Promise.all([loadRules(), loadSynonyms(), loadProposals()]);
    },
  });
}

start();
