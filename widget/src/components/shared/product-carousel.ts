import { LitElement, type PropertyDeclarations, type PropertyValues } from "lit";
import type { WidgetContext } from "../../core/widget-context.ts";

/** Share of the element on screen before it counts as seen. */
const VISIBLE_RATIO = 0.5;

/**
 * What the similar-products, complete-the-look and recommendation carousels share: `product-id`/`variant-id` and the context
 * start a request (a newer one aborts the older); the element hides itself (no empty box) when the answer has
 * nothing or the request fails; `onSeen` runs once, when the shopper first has it half in view (at once where
 * the browser cannot tell), so that a view is not reported for a carousel below the fold that nobody saw.
 */
export abstract class ProductCarousel<T> extends LitElement {
  static override properties: PropertyDeclarations = {
    context: { attribute: false },
    productId: { attribute: "product-id" },
    variantId: { attribute: "variant-id" },
    items: { state: true },
    loading: { state: true },
  };

  declare context: WidgetContext | null;
  declare productId: string;
  declare variantId: string;
  declare items: T[];
  declare loading: boolean;
  private abort: AbortController | null = null;
  private observer: IntersectionObserver | null = null;
  private seen = false;

  constructor() {
    super();
    this.context = null;
    this.productId = "";
    this.variantId = "";
    this.items = [];
    this.loading = false;
  }

  /** The items for the current product; a rejection counts as none. */
  protected abstract fetch(context: WidgetContext, signal: AbortSignal): Promise<T[]>;
  protected abstract onSeen(): void;

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.abort?.abort();
    this.observer?.disconnect();
  }

  /** The properties whose change asks again. */
  protected requestProperties(): readonly string[] {
    return ["productId", "variantId", "context"];
  }

  /** Whether there is something to ask for: a product page's carousel needs its product. */
  protected askable(): boolean {
    return this.productId !== "";
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    const asked = changed as Map<PropertyKey, unknown>;
    if (this.requestProperties().some((p) => asked.has(p)) && this.context && this.askable()) void this.load(this.context);
  }

  private async load(context: WidgetContext): Promise<void> {
    this.abort?.abort();
    const abort = (this.abort = new AbortController());
    this.loading = true;
    this.hidden = false;
    let items: T[] = [];
    try {
      items = await this.fetch(context, abort.signal);
    } catch {
      // a failed request shows nothing, like an empty answer
    }
    if (abort.signal.aborted) return;
    this.items = items;
    this.loading = false;
    this.hidden = !items.length;
    if (!this.hidden) this.watchVisibility();
  }

  private watchVisibility(): void {
    if (this.seen || this.observer) return;
    if (typeof IntersectionObserver !== "function") return this.markSeen();
    this.observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting && e.intersectionRatio >= VISIBLE_RATIO)) this.markSeen();
      },
      { threshold: VISIBLE_RATIO },
    );
    this.observer.observe(this);
  }

  private markSeen(): void {
    this.observer?.disconnect();
    this.observer = null;
    if (this.seen) return;
    this.seen = true;
    this.onSeen();
  }
}
