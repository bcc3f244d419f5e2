/*
 * Latency helpers for benchmarks: a closed loop of requests that records how long each took (sent until the
 * body was read), and percentiles over such samples. load.ts's measureRate is this loop without the samples.
 */

export interface LatencyRun {
  requests: number;
  perSecond: number;
  failures: number;
  /** Milliseconds per successful request, in completion order. */
  latencies: number[];
  /** Label of each recorded latency, when the request function gives one. */
  labels: string[];
}

/** `concurrency` requests in flight for `seconds` (keep-alive); `request(i)` may label its request for breakdowns. */
export async function measureLatencies(
  seconds: number,
  concurrency: number,
  request: (i: number) => { label?: string; send: () => Promise<Response> },
): Promise<LatencyRun> {
  const deadline = performance.now() + seconds * 1000;
  const latencies: number[] = [];
  const labels: string[] = [];
  let failures = 0;
  let i = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const { label, send } = request(i++);
        const t0 = performance.now();
        const res = await send();
        await res.arrayBuffer();
        const ms = performance.now() - t0;
        if (res.ok) {
          latencies.push(ms);
          labels.push(label ?? "");
        } else failures++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  return { requests: latencies.length, perSecond: latencies.length / elapsed, failures, latencies, labels };
}

/** Nearest-rank percentile (p in 0..100) of unsorted samples; NaN when there are none. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = Float64Array.from(samples).sort();
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

/** Milliseconds of one GET, from sending it to its whole body read; throws on an answer that is not 2xx. */
export async function timedGet(url: string, headers: Record<string, string>): Promise<number> {
  const start = performance.now();
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${new URL(url).pathname} answered ${res.status}`);
  return performance.now() - start;
}

export interface LatencySummary {
  n: number;
  p50: number;
  p99: number;
  max: number;
  mean: number;
}

export function summarize(samples: readonly number[]): LatencySummary {
  let sum = 0;
  let max = 0;
  for (const s of samples) {
    sum += s;
    if (s > max) max = s;
  }
  return {
    n: samples.length,
    p50: percentile(samples, 50),
    p99: percentile(samples, 99),
    max,
    mean: samples.length ? sum / samples.length : NaN,
  };
}

/**
 * Peak (VmHWM) and current (VmRSS) resident memory of a process, in MiB, and how much of the current is file pages
 * mapped in (RssFile: the database files SQLite reads mapped, and the executable), which the kernel may drop.
 */
export async function rssMiB(pid: number): Promise<{ current: number; peak: number; fileBacked: number }> {
  const status = await Bun.file(`/proc/${pid}/status`).text();
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { current: Math.round(kb("VmRSS") / 1024), peak: Math.round(kb("VmHWM") / 1024), fileBacked: Math.round(kb("RssFile") / 1024) };
}
