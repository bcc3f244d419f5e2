import { StoreCache, type ChangeFeed } from "../../platform/change-feed.ts";
import type { RulesRepository, StoredRule } from "./storage/rules-repository.ts";
import type { StoreRow } from "../stores/storage/stores-repository.ts";
import { LimitReachedError, NotFoundError, ValidationError, type ErrorDetail } from "../../errors.ts";
import { fromAlgolia } from "./algolia-rules.ts";
import { combine, RuleBook, type RuleEffects, type SearchContext } from "./rule-book.ts";
import type { Deleted, ImportReport, Rule, RuleBody, RuleList } from "@storefront-search/contract";
import { MAX_RULES_PER_STORE, parseRuleBody } from "./rule-schema.ts";

/** A rule not saved yet, applied as if it were: it replaces the store's rule of the same id, if any. */
export interface DraftRule {
  id: string;
  body: RuleBody;
}

/** What search asks of the rules (search-service.ts). */
export interface SearchRules {
  /** What the store's rules (and a draft) do to this search; null when none fires. */
  effects(store: StoreRow, context: SearchContext, draft?: DraftRule): Promise<RuleEffects | null>;
  /** The redirect the typed text alone triggers, for typeahead. */
  redirectFor(store: StoreRow, query: string, withheld?: ReadonlySet<string>): Promise<string | null>;
}

const toRule = (row: StoredRule): Rule => ({
  ...(JSON.parse(row.rule) as Rule),
  id: row.id,
  updatedAt: new Date(row.updatedAt).toISOString(),
});

function stored(body: RuleBody): string {
  return JSON.stringify({ ...body, enabled: body.enabled ?? true });
}

export class RulesService implements SearchRules {
  /**
   * Compiled books by store, for the store's generation (a store deleted and created again starts empty). A change
   * here or on another replica (told through the feed) drops the store's book; the next search compiles it again.
   */
  private readonly books: StoreCache<RuleBook>;

  constructor(
    private readonly repo: RulesRepository,
    private readonly now: () => number,
    private readonly feed: ChangeFeed,
  ) {
    this.books = new StoreCache(feed, "rules");
  }

  async get(store: StoreRow, id: string): Promise<Rule> {
    const row = await this.repo.get(store.id, id);
    if (!row) throw new NotFoundError(`No rule ${id}`);
    return toRule(row);
  }

  async list(store: StoreRow, from: number, limit: number): Promise<RuleList> {
    const [rows, total] = await Promise.all([this.repo.page(store.id, from, limit), this.repo.count(store.id)]);
    return { rules: rows.map(toRule), total };
  }

  async put(store: StoreRow, id: string, body: RuleBody): Promise<Rule> {
    const refused = await this.repo.putAll(store.id, [{ id, rule: stored(body) }], this.now(), MAX_RULES_PER_STORE);
    if (refused.size) throw new LimitReachedError(`The store holds ${MAX_RULES_PER_STORE} rules, the most it may; delete one first`);
    await this.changed(store.id);
    return this.get(store, id);
  }

  async delete(store: StoreRow, id: string): Promise<Deleted> {
    if (!(await this.repo.delete(store.id, id))) throw new NotFoundError(`No rule ${id}`);
    await this.changed(store.id);
    return { id, deleted: true };
  }

  /** Algolia rule exports: each rule mapped and checked on its own, the valid ones saved, the others reported. */
  async import(store: StoreRow, items: unknown): Promise<ImportReport> {
    if (!Array.isArray(items))
      throw new ValidationError("Body must be an array of rules", [{ path: "body", problem: "must be an array of Algolia rules" }]);
    if (items.length > MAX_RULES_PER_STORE) {
      throw new ValidationError("Too many rules", [{ path: "body", problem: `must hold at most ${MAX_RULES_PER_STORE} rules` }]);
    }
    const errors: ImportReport["errors"] = [];
    const valid: { index: number; id: string; rule: string }[] = [];
    items.forEach((item, index) => {
      const mapped = fromAlgolia(item, `body[${index}]`);
      if ("problem" in mapped) {
        errors.push({ index, ...(mapped.id ? { id: mapped.id } : {}), message: mapped.problem });
        return;
      }
      try {
        valid.push({ index, id: mapped.id, rule: stored(parseRuleBody(mapped.body, `body[${index}]`)) });
      } catch (error) {
        const details = (error as ValidationError).details ?? [];
        errors.push({
          index,
          id: mapped.id,
          message: details.map((d: ErrorDetail) => `${d.path} ${d.problem}`).join("; ") || (error as Error).message,
        });
      }
    });
    const refused = await this.repo.putAll(store.id, valid, this.now(), MAX_RULES_PER_STORE);
    for (const v of valid)
      if (refused.has(v.id))
        errors.push({ index: v.index, id: v.id, message: `the store holds ${MAX_RULES_PER_STORE} rules, the most it may` });
    errors.sort((a, b) => a.index - b.index);
    await this.changed(store.id);
    return { imported: valid.length - refused.size, errors };
  }

  async effects(store: StoreRow, context: SearchContext, draft?: DraftRule): Promise<RuleEffects | null> {
    const book = draft ? await this.draftBook(store, draft) : await this.book(store);
    return combine(book.fired(context, this.now()), context.query);
  }

  async redirectFor(store: StoreRow, query: string, withheld?: ReadonlySet<string>): Promise<string | null> {
    return (await this.book(store)).redirectFor(query, this.now(), withheld);
  }

  private book(store: StoreRow): Promise<RuleBook> {
    return this.books.get(store, async () => new RuleBook((await this.repo.all(store.id)).map(toRule)));
  }

  private async draftBook(store: StoreRow, draft: DraftRule): Promise<RuleBook> {
    const rule: Rule = { ...draft.body, id: draft.id, enabled: draft.body.enabled ?? true, updatedAt: new Date(this.now()).toISOString() };
    return new RuleBook([...(await this.repo.all(store.id)).map(toRule).filter((r) => r.id !== draft.id), rule]);
  }

  /** A change committed here: this replica's book goes at once, the others' when they hear of it. */
  private async changed(storeId: string): Promise<void> {
    this.books.drop(storeId);
    await this.feed.publish("rules", storeId);
  }
}
