/* Closed-loop load from this process: `concurrency` requests in flight for `seconds`, keep-alive. */
export async function measureRate(
  seconds: number,
  concurrency: number,
  request: (i: number) => Promise<Response>,
): Promise<{ requests: number; perSecond: number; failures: number }> {
  const deadline = performance.now() + seconds * 1000;
  let requests = 0;
  let failures = 0;
  let i = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const res = await request(i++);
        await res.arrayBuffer();
        if (res.ok) requests++;
        else failures++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  return { requests, perSecond: requests / elapsed, failures };
}

/** Peak resident memory of a process in MiB (Linux VmHWM). */
export async function peakRssMiB(pid: number): Promise<number> {
  const status = await Bun.file(`/proc/${pid}/status`).text();
  const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}
