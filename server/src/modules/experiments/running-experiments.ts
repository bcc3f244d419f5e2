import { StoreCache, type ChangeFeed } from "../../platform/change-feed.ts";
import type { StoreSettings } from "../settings/settings-schema.ts";
import type { ShopperVariant } from "../settings/shopper-variant.ts";
import type { StoreRow } from "../stores/storage/stores-repository.ts";
import { assignVariant, shopperOf } from "./assignment.ts";
import type { ExperimentBody, Overrides, Scope } from "./experiment-schema.ts";
import { covers } from "./experiment-scope.ts";
import type { ExperimentsRepository } from "./storage/experiments-repository.ts";

/*
 * Which running experiment covers a request, and what the shopper's variant changes in it. The store's running
 * experiments are read once and kept until an experiment of the store changes, here or on another replica (the
 * change feed), so a search costs a hash, not a read.
 */

/** What one variant changes in an answer. */
export interface VariantPlan {
  settings: Partial<StoreSettings>;
  /**
   * Rules and synonym sets another variant of the experiment lists but this one does not: held back from this
   * variant's shoppers, so that a rule or set tested is in force only for the variants that list it.
   */
  withheld: { rules: ReadonlySet<string>; synonymSets: ReadonlySet<string> };
  looks: NonNullable<Overrides["looks"]> | null;
}

/** The experiment a request falls in, as the answer applies it. */
export type ShopperExperiment =
  /** `variant` null: the request names no shopper, who sees the control and is not counted (the answer names no variant). */
  | { id: string; mode: "ab"; variant: string | null; plan: VariantPlan }
  /** Both rankings, first variant's first ("A"); `shopper` seeds the draft's coin so a shopper sees one list. */
  | { id: string; mode: "interleaving"; shopper: string; plans: [VariantPlan, VariantPlan] };

/** What a request says of itself that decides whether an experiment covers it. */
export interface ExperimentRequest {
  userId?: string | null;
  sessionId?: string | null;
  query?: string | null;
  collection?: string | null;
}

interface Running {
  id: string;
  body: ExperimentBody;
  shares: number[];
  plans: VariantPlan[];
}

/** Whether the scope covers this request: a collection scope covers its own collection's page. */
function coversRequest(scope: Scope, request: ExperimentRequest): boolean {
  if (scope.type === "collection") return request.collection === scope.collection;
  return covers(scope, { query: request.query ?? "" });
}

function plansOf(body: ExperimentBody): VariantPlan[] {
  const listed = (pick: (o: Overrides) => string[] | undefined) => new Set(body.variants.flatMap((v) => pick(v.overrides ?? {}) ?? []));
  const [allRules, allSets] = [listed((o) => o.rules), listed((o) => o.synonymSets)];
  return body.variants.map((v) => {
    const o = v.overrides ?? {};
    const own = (all: Set<string>, mine: string[] | undefined) => new Set([...all].filter((id) => !(mine ?? []).includes(id)));
    return {
      settings: o.settings ?? {},
      withheld: { rules: own(allRules, o.rules), synonymSets: own(allSets, o.synonymSets) },
      looks: o.looks ?? null,
    };
  });
}

export class RunningExperiments {
  private readonly running: StoreCache<Running[]>;

  constructor(
    private readonly repo: Pick<ExperimentsRepository, "all">,
    private readonly feed: ChangeFeed,
  ) {
    this.running = new StoreCache(feed, "experiments");
  }

  /** The running experiment covering the request and the shopper's variant in it; null when none covers it. */
  async of(store: Pick<StoreRow, "id" | "createdAt">, request: ExperimentRequest): Promise<ShopperExperiment | null> {
    const running = await this.running.get(store, () => this.read(store.id));
    // Scopes of running experiments never overlap (experiments-service.ts), so the first is the only one.
    const e = running.find((r) => coversRequest(r.body.scope, request));
    if (!e) return null;
    const shopper = shopperOf(request);
    if (!shopper) return { id: e.id, mode: "ab", variant: null, plan: e.plans[0]! };
    if (e.body.mode === "interleaving") return { id: e.id, mode: "interleaving", shopper, plans: [e.plans[0]!, e.plans[1]!] };
    const index = assignVariant(e.id, shopper, e.shares);
    return { id: e.id, mode: "ab", variant: e.body.variants[index]!.name, plan: e.plans[index]! };
  }

  /**
   * The shopper's variant for an answer other than a search (suggestions, similar products, looks, the widget's
   * configuration), which shows one variant's behaviour: an interleaving experiment compares two rankings of one
   * results list, so it leaves these answers as the store has them.
   */
  async forAnswer(
    store: Pick<StoreRow, "id" | "createdAt">,
    request: ExperimentRequest,
  ): Promise<(ShopperVariant & { withheldRules: ReadonlySet<string> }) | null> {
    const e = await this.of(store, request);
    if (!e || e.mode === "interleaving") return null;
    return {
      tag: e.variant ? { id: e.id, variant: e.variant } : null,
      settings: e.plan.settings,
      looks: e.plan.looks,
      withheldRules: e.plan.withheld.rules,
    };
  }

  /** An experiment of the store changed here: this replica reads them again at once, the others when they hear. */
  async changed(storeId: string): Promise<void> {
    this.running.drop(storeId);
    await this.feed.publish("experiments", storeId);
  }

  private async read(storeId: string): Promise<Running[]> {
    return (await this.repo.all(storeId))
      .filter((row) => row.status === "running")
      .map((row) => {
        const body = JSON.parse(row.body) as ExperimentBody;
        return { id: row.id, body, shares: body.variants.map((v) => v.share), plans: plansOf(body) };
      });
  }
}
