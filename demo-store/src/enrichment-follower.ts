import type { EnrichmentProgress } from "../../server/src/db/enrichment-repository.ts";
import { formatDuration } from "./progress-bar.ts";

/*
 * After the keys, `npm start` says how far product enrichment is (attributes from each product's text, then colours
 * from its images: about 20 minutes for the whole demo catalog on 2 cores), from the service's /health, once a
 * minute until it is done, so that a newcomer knows why the machine is busy and when the colour facets are complete.
 */

const EVERY_MS = 60_000;

const count = (n: number) => n.toLocaleString("en");
const stepsLeft = (p: EnrichmentProgress) => p.text.total - p.text.done + (p.image.total - p.image.done);
const complete = (p: EnrichmentProgress) => stepsLeft(p) === 0;

export function describeEnrichment(p: EnrichmentProgress, secondsLeft: number | null): string {
  if (complete(p)) return `Enrichment: complete (${count(p.text.total)} products).`;
  const left = secondsLeft === null ? "" : `, about ${formatDuration(secondsLeft)} left`;
  return `Enrichment: text ${count(p.text.done)}/${count(p.text.total)}, images ${count(p.image.done)}/${count(p.image.total)} products${left} (progress: /health).`;
}

/** Prints enrichment's progress now and every minute until it is complete. Never fails the start. */
export function followEnrichment(apiUrl: string, out: (line: string) => void = (line) => console.error(line)): void {
  let first: { at: number; left: number } | null = null;
  const check = async () => {
    const res = await fetch(`${apiUrl}/health`);
    const progress = ((await res.json()) as { enrichment?: EnrichmentProgress }).enrichment;
    if (!progress) return true;
    const at = performance.now();
    const left = stepsLeft(progress);
    if (complete(progress)) {
      out(first ? `Enrichment finished ${formatDuration(at / 1000)} after the process started: ${count(progress.text.total)} products.` : describeEnrichment(progress, null));
      return false;
    }
    // The rate since the first reading: the stages' pace settles within a minute.
    const rate = first && first.left > left ? (first.left - left) / ((at - first.at) / 1000) : null;
    out(describeEnrichment(progress, rate ? left / rate : null));
    first ??= { at, left };
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
