/* A one-line progress bar on a terminal; on a pipe (CI, logs) a line per 10%. */
export function progressBar(label: string, total: number, out: NodeJS.WriteStream = process.stderr) {
  let lastDecile = -1;
  const started = performance.now();
  return {
    update(done: number) {
      const ratio = total === 0 ? 1 : Math.min(1, done / total);
      const seconds = (performance.now() - started) / 1000;
      const rate = seconds > 0 ? Math.round(done / seconds) : 0;
      const text = `${label} ${done.toLocaleString("en")}/${total.toLocaleString("en")} (${rate.toLocaleString("en")}/s)`;
      if (out.isTTY) {
        const width = 30;
        const filled = Math.round(ratio * width);
        out.write(`\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${text}`);
      } else {
        const decile = Math.floor(ratio * 10);
        if (decile !== lastDecile) {
          lastDecile = decile;
          out.write(`${Math.round(ratio * 100)}% ${text}\n`);
        }
      }
    },
    finish() {
      if (out.isTTY) out.write("\n");
    },
  };
}
