/* What an answer says about the experiment it was shaped by, and what the widget's events send back, so that each
 * event counts for the variant its shopper saw. */

/** One of an interleaving experiment's two rankings: the first variant's ("A") or the second's ("B"). */
export type InterleavingTeam = "A" | "B";

/** The `experiment` of an answer a running experiment touched. */
export interface ExperimentTag {
  id: string;
  /** The name of the shopper's variant; under interleaving, "interleaved" (both rankings in one list). */
  variant: string;
  /** Interleaving: which ranking placed each product of the answer, by product id. */
  interleavedFrom?: Record<string, InterleavingTeam>;
}

/** The name an interleaving experiment's answers give as their variant. */
export const INTERLEAVED_VARIANT = "interleaved";
