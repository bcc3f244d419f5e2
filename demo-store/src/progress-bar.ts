/*
 * Progress of a long step. On a terminal: one line redrawn in place (bar, count, rate, time left). Anywhere else
 * (CI, a pipe, a log file): a line at the start, at 25, 50 and 75%, and at the end, so a log stays short.
 */

export interface ProgressBar {
  update(done: number): void;
  /** Ends the bar with its final line. */
  finish(done: number): void;
}

const REDRAW_MS = 100;
/** Rate and time left follow the last few seconds, not the average since the start (which includes its warm-up). */
const RATE_WINDOW_MS = 5000;

const count = (n: number) => Math.round(n).toLocaleString("en");

export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
}

export function progressBar(label: string, total: number, out: NodeJS.WriteStream = process.stderr): ProgressBar {
  const started = performance.now();
  const tty = out.isTTY === true;
  let lastDraw = -Infinity;
  let milestone = 0;
  const samples: { at: number; done: number }[] = [{ at: started, done: 0 }];

  const recentRate = (done: number) => {
    const now = performance.now();
    samples.push({ at: now, done });
    while (samples.length > 2 && now - samples[1]!.at >= RATE_WINDOW_MS) samples.shift();
    const first = samples[0]!;
    return now > first.at ? ((done - first.done) * 1000) / (now - first.at) : 0;
  };

  if (!tty) out.write(`${label}: ${count(total)} products\n`);

  return {
    update(done) {
      const rate = recentRate(done);
      const eta = rate > 0 ? (total - done) / rate : null;
      const ratio = total === 0 ? 1 : Math.min(1, done / total);
      if (tty) {
        const now = performance.now();
        if (now - lastDraw < REDRAW_MS) return;
        lastDraw = now;
        const width = 30;
        const filled = Math.round(ratio * width);
        const left = eta === null || done === 0 ? "" : `  ${formatDuration(eta)} left`;
        out.write(
          `\r\x1b[K${label} [${"#".repeat(filled)}${".".repeat(width - filled)}] ${count(done)}/${count(total)}  ${count(rate)}/s${left}`,
        );
        return;
      }
      const reached = Math.floor(ratio * 4);
      if (reached > milestone && reached < 4) {
        milestone = reached;
        out.write(`${label}: ${reached * 25}% (${count(done)}/${count(total)}, ${count(rate)}/s)\n`);
      }
    },
    finish(done) {
      const seconds = (performance.now() - started) / 1000;
      const line = `${label}: ${count(done)}/${count(total)} in ${formatDuration(seconds)} (${count(seconds > 0 ? done / seconds : 0)}/s)`;
      out.write(tty ? `\r\x1b[K${line}\n` : `${line}\n`);
    },
  };
}
