/* GET /health, which needs no key: liveness, whether the storage takes writes, and enrichment's progress. */

/** How far a stage is over the products queued for enrichment and those it finished. */
export type StageProgress = {
  done: number;
  total: number;
};

/**
 * Per stage, over the products enrichment has a job or a finished result for. The image stage's total counts the
 * products still at the text stage, which decides whether there is an image to analyse: it falls when some have none.
 */
export type EnrichmentProgress = {
  text: StageProgress;
  image: StageProgress;
};

/** 200 with "ok"; 503 with "unavailable" and why. The progress is left out when the database cannot be read. */
export type Health =
  | { status: "ok"; enrichment?: EnrichmentProgress }
  | { status: "unavailable"; reason: string; enrichment?: EnrichmentProgress };
