import type { EnrichmentProgress } from "@storefront-search/contract";
import { formatDuration } from "./progress-bar.ts";

/*
 * After the keys, `npm start` says how far product enrichment is (attributes from each product's text, then colours
 * from its images: about 7 minutes for the whole demo catalog on 2 cores), from the service's /health, once a
 * minute until it is done, so that a newcomer knows why the machine is busy and when the colour facets are complete.
 */

const EVERY_MS = 60_000;

const count = (n: number) => n.toLocaleString("en");
const STAGES = ["text", "image"] as const;
const complete = (p: EnrichmentProgress) => STAGES.every((stage) => p[stage].done === p[stage].total);

/**
 * Time left at the pace of the last interval, stage by stage (images go at a fraction of the text stage's pace):
 * the slowest stage's. Null while a stage with work left made no progress.
 */
export function secondsLeft(before: EnrichmentProgress, now: EnrichmentProgress, seconds: number): number | null {
  let longest = 0;
  for (const stage of STAGES) {
    const left = now[stage].total - now[stage].done;
    if (left === 0) continue;
    const rate = (now[stage].done - before[stage].done) / seconds;
    if (rate <= 0) return null;
    longest = Math.max(longest, left / rate);
  }
  return longest;
}

export function describeEnrichment(p: EnrichmentProgress, secondsLeft: number | null): string {
  if (complete(p)) return `Enrichment: complete (${count(p.text.total)} products).`;
  const left = secondsLeft === null ? "" : `, about ${formatDuration(secondsLeft)} left`;
  return `Enrichment: text ${count(p.text.done)}/${count(p.text.total)}, images ${count(p.image.done)}/${count(p.image.total)} products${left} (progress: /health).`;
}

/** Prints enrichment's progress now and every minute until it is complete. Never fails the start. */
export function followEnrichment(apiUrl: string, out: (line: string) => void = (line) => console.error(line)): void {
  let last: { at: number; progress: EnrichmentProgress } | null = null;
  const check = async () => {
    const res = await fetch(`${apiUrl}/health`);
    const progress = ((await res.json()) as { enrichment?: EnrichmentProgress }).enrichment;
    if (!progress) return true;
    const at = performance.now();
    if (complete(progress)) {
      out(
        last
          ? `Enrichment finished ${formatDuration(at / 1000)} after the process started: ${count(progress.text.total)} products.`
          : describeEnrichment(progress, null),
      );
      return false;
    }
    out(describeEnrichment(progress, last ? secondsLeft(last.progress, progress, (at - last.at) / 1000) : null));
    last = { at, progress };
    return true;
  };
  const next = () => {
    check().then(
      (again) => again && setTimeout(next, EVERY_MS).unref(),
      () => setTimeout(next, EVERY_MS).unref(),
    );
  };
  next();
}
