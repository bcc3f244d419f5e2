import { formatFacetParam, type FacetSelection } from "@storefront-search/contract";
import { facetKeyOf, PRICE } from "./attributes.ts";
import { UnsupportedSearchError } from "./unsupported.ts";

/*
 * The conditions of one request, gathered from facetFilters, numericFilters and filters, as the service can
 * express them: per facet key one set of values (OR), values excluded (each AND), and one price range. Our price
 * range is half-open, [lb, ub), as the price facet's buckets are; an inclusive upper bound becomes
 * ub = bound + 0.000001.
 */

const STEP = 0.000001;
const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

export type Comparison = ">=" | ">" | "<=" | "<" | "=" | "!=";

export class FilterSet {
  private readonly values = new Map<string, { attribute: string; values: string[] }>();
  private readonly excluded: FacetSelection[] = [];
  private lb: number | undefined;
  private ub: number | undefined;

  /** Values of one attribute, any of which a product may have; AND with everything added before. */
  addValues(attribute: string, values: readonly string[]): void {
    const key = termKey(attribute);
    const earlier = this.values.get(key);
    const unique = [...new Set(values)];
    if (earlier && !sameSet(earlier.values, unique)) {
      throw new UnsupportedSearchError(
        `${attribute}: two conditions joined by AND on one attribute cannot be searched; the values of one attribute are OR (refinementList operator "or")`,
      );
    }
    this.values.set(key, { attribute, values: unique });
  }

  /** A value no product may have (products without the attribute stay); AND with everything else. */
  addExclusion(attribute: string, value: string): void {
    const key = termKey(attribute);
    if (!this.excluded.some((s) => s.key === key && s.value === value)) this.excluded.push({ key, value, exclude: true });
  }

  addComparison(attribute: string, comparison: Comparison, n: number): void {
    if (attribute !== PRICE) throw new UnsupportedSearchError(`numeric filters work on ${PRICE} only, not ${attribute}`);
    if (!Number.isFinite(n)) throw new UnsupportedSearchError(`${attribute}${comparison}${n}: not a number`);
    if (comparison === "!=") throw new UnsupportedSearchError(`${attribute}!=${n}: excluding a price is not supported`);
    if (comparison === ">=" || comparison === "=") this.raiseLb(n);
    if (comparison === ">") this.raiseLb(round6(n + STEP));
    if (comparison === "<") this.lowerUb(n);
    if (comparison === "<=" || comparison === "=") this.lowerUb(round6(n + STEP));
  }

  /** The service's `facets` parameter (facet-param.ts). */
  toFacetParam(): string {
    const selections: FacetSelection[] = [];
    for (const [key, { values }] of this.values) for (const value of values) selections.push({ key, value });
    selections.push(...this.excluded);
    if (this.lb !== undefined || this.ub !== undefined) {
      const lb = Math.max(0, this.lb ?? 0);
      selections.push({ key: PRICE, value: `${this.lb === undefined ? "" : lb}-${this.ub === undefined ? "" : Math.max(lb, this.ub)}` });
    }
    return formatFacetParam(selections);
  }

  private raiseLb(n: number): void {
    this.lb = this.lb === undefined ? n : Math.max(this.lb, n);
  }

  private lowerUb(n: number): void {
    this.ub = this.ub === undefined ? n : Math.min(this.ub, n);
  }
}

function termKey(attribute: string): string {
  if (attribute === PRICE) throw new UnsupportedSearchError(`${PRICE} is numeric: filter it with numericFilters (price>=10)`);
  return facetKeyOf(attribute);
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v) => b.includes(v));
}
