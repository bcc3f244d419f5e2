import type { RulesRepo, StoredRule } from "../../db/rules-repo.ts";
import { type StoreRow } from "../../db/stores-repository.ts";
import { LimitReachedError, NotFoundError, ValidationError, type ErrorDetail } from "../../errors.ts";
import { fromAlgolia } from "./algolia-rules.ts";
import { combine, RuleBook, type RuleEffects, type SearchContext } from "./rule-book.ts";
import { MAX_RULES_PER_STORE, parseRuleBody, type Rule, type RuleBody } from "./rule-schema.ts";

/** A rule not saved yet, applied as if it were: it replaces the store's rule of the same id, if any. */
export interface DraftRule {
  id: string;
  body: RuleBody;
}

/** What search asks of the rules (search-service.ts). */
export interface SearchRules {
  /** What the store's rules (and a draft) do to this search; null when none fires. */
  effects(store: StoreRow, context: SearchContext, draft?: DraftRule): RuleEffects | null;
  /** The redirect the typed text alone triggers, for typeahead. */
  redirectFor(store: StoreRow, query: string): string | null;
}

export interface ImportReport {
  imported: number;
  errors: { index: number; id?: string; message: string }[];
}

const toRule = (row: StoredRule): Rule => ({ ...(JSON.parse(row.rule) as Rule), id: row.id, updatedAt: new Date(row.updatedAt).toISOString() });

function stored(body: RuleBody): string {
  return JSON.stringify({ ...body, enabled: body.enabled ?? true });
}

export class RulesService implements SearchRules {
  /** Compiled books by store, for the store's generation (a store deleted and created again starts empty). */
  private readonly books = new Map<string, { generation: number; book: RuleBook }>();

  constructor(
    private readonly repo: RulesRepo,
    private readonly now: () => number,
  ) {}

  get(store: StoreRow, id: string): Rule {
    const row = this.repo.get(store.id, id);
    if (!row) throw new NotFoundError(`No rule ${id}`);
    return toRule(row);
  }

  list(store: StoreRow, from: number, limit: number): { rules: Rule[]; total: number } {
    return { rules: this.repo.page(store.id, from, limit).map(toRule), total: this.repo.count(store.id) };
  }

  put(store: StoreRow, id: string, body: RuleBody): Rule {
    const refused = this.repo.putAll(store.id, [{ id, rule: stored(body) }], this.now(), MAX_RULES_PER_STORE);
    if (refused.size) throw new LimitReachedError(`The store holds ${MAX_RULES_PER_STORE} rules, the most it may; delete one first`);
    this.books.delete(store.id);
    return this.get(store, id);
  }

  delete(store: StoreRow, id: string): { id: string; deleted: true } {
    if (!this.repo.delete(store.id, id)) throw new NotFoundError(`No rule ${id}`);
    this.books.delete(store.id);
    return { id, deleted: true };
  }

  /** Algolia rule exports: each rule mapped and checked on its own, the valid ones saved, the others reported. */
  import(store: StoreRow, items: unknown): ImportReport {
    if (!Array.isArray(items)) throw new ValidationError("Body must be an array of rules", [{ path: "body", problem: "must be an array of Algolia rules" }]);
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
        errors.push({ index, id: mapped.id, message: details.map((d: ErrorDetail) => `${d.path} ${d.problem}`).join("; ") || (error as Error).message });
      }
    });
    const refused = this.repo.putAll(store.id, valid, this.now(), MAX_RULES_PER_STORE);
    for (const v of valid) if (refused.has(v.id)) errors.push({ index: v.index, id: v.id, message: `the store holds ${MAX_RULES_PER_STORE} rules, the most it may` });
    errors.sort((a, b) => a.index - b.index);
    this.books.delete(store.id);
    return { imported: valid.length - refused.size, errors };
  }

  effects(store: StoreRow, context: SearchContext, draft?: DraftRule): RuleEffects | null {
    const book = draft ? this.draftBook(store, draft) : this.book(store);
    return combine(book.fired(context, this.now()), context.query);
  }

  redirectFor(store: StoreRow, query: string): string | null {
    return this.book(store).redirectFor(query, this.now());
  }

  private book(store: StoreRow): RuleBook {
    const known = this.books.get(store.id);
    if (known?.generation === store.createdAt) return known.book;
    const book = new RuleBook(this.repo.all(store.id).map(toRule));
    this.books.set(store.id, { generation: store.createdAt, book });
    return book;
  }

  private draftBook(store: StoreRow, draft: DraftRule): RuleBook {
    const rule: Rule = { ...draft.body, id: draft.id, enabled: draft.body.enabled ?? true, updatedAt: new Date(this.now()).toISOString() };
    return new RuleBook([...this.repo.all(store.id).map(toRule).filter((r) => r.id !== draft.id), rule]);
  }
}
