/*
 * `npm test`: every suite of the repository, one after another, then one line `N passed, N failed` that sums
 * them (bun test prints "N pass" / "N fail" per run, which CI does not read). Exit code 1 if anything failed.
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
/*
 * Every suite's temp files (data dirs, certificates, builds) go under one directory of this run, removed at its end:
 * a test that stops early, or a child it started, leaves nothing behind in the machine's temp dir.
 */
const scratch = mkdtempSync(join(tmpdir(), "sfs-run-"));
// Traversable by other users (not listable): run as root, the PostgreSQL tests start the cluster as `nobody` in a dir
// of their own inside it, as they would directly under /tmp.
chmodSync(scratch, 0o711);

interface Suite {
  name: string;
  cmd: string[];
  /** Reads passed/failed counts from the suite's output; null if the output has no summary (a crash). */
  count(output: string, exitCode: number): { passed: number; failed: number } | null;
}

const bunTestCounts = (output: string) => {
  const pass = /^\s*(\d+) pass\s*$/m.exec(output);
  const fail = /^\s*(\d+) fail\s*$/m.exec(output);
  return pass && fail ? { passed: Number(pass[1]), failed: Number(fail[1]) } : null;
};

const SUITES: Suite[] = [
  {
    name: "typecheck",
    cmd: ["npx", "--no-install", "tsc", "--noEmit", "-p", "tsconfig.json"],
    count: (_out, code) => (code === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 }),
  },
  {
    // Formatting and lint rules (biome.json; why each rule that is off is off: docs/decisions.md#code-style-biome).
    name: "format and lint (Biome)",
    cmd: ["npx", "--no-install", "biome", "ci", "--colors=off", "--error-on-warnings", "."],
    count: (_out, code) => (code === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 }),
  },
  {
    // The head script: one file, and the build fails over the 30 KB gzip budget (scripts/size-limit.ts).
    name: "widget build and size budget",
    cmd: ["npm", "run", "build", "-w", "widget"],
    count: (_out, code) => (code === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 }),
  },
  {
    // The InstantSearch client as the server serves it: one ES module, and the build fails over 6 KB gzipped.
    name: "InstantSearch client build and size budget",
    cmd: ["npm", "run", "build", "-w", "instantsearch-client"],
    count: (_out, code) => (code === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 }),
  },
  {
    // The staff pages (/reports, /merchandising, /theme) are served from staff-pages/dist: the e2e and server suites need them.
    name: "staff pages build",
    cmd: ["npm", "run", "build", "-w", "staff-pages"],
    count: (_out, code) => (code === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 }),
  },
  {
    name: "widget unit tests (bun test, happy-dom, msw)",
    cmd: [process.execPath, "test", "--timeout", "60000", "./widget"],
    count: bunTestCounts,
  },
  {
    // The InstantSearch searchClient: its mapping, and the real instantsearch.js in happy-dom against the real server.
    name: "InstantSearch client (bun test, happy-dom)",
    cmd: [process.execPath, "test", "--timeout", "60000", "./instantsearch-client"],
    count: bunTestCounts,
  },
  {
    // Chromium drives the demo store as a shopper; needs the widget and the staff pages built (the suites above).
    // Playwright's runner runs under Node; its summary reporter (e2e/support/summary-reporter.ts) ends with
    // "N passed, M failed".
    name: "end-to-end (Playwright test runner + Chromium, demo store)",
    cmd: ["npx", "--no-install", "playwright", "test", "-c", "e2e"],
    count: (output) => {
      const m = /^(\d+) passed, (\d+) failed$/m.exec(output);
      return m ? { passed: Number(m[1]), failed: Number(m[2]) } : null;
    },
  },
  {
    name: "server and demo-store (bun test)",
    // Integration tests start servers and index real data: allow a minute per test on a loaded 2-core machine.
    cmd: [process.execPath, "test", "--timeout", "60000", "server", "demo-store"],
    count: bunTestCounts,
  },
];

async function run(suite: Suite): Promise<{ passed: number; failed: number }> {
  console.log(`\n=== ${suite.name}: ${suite.cmd.join(" ")}`);
  const started = performance.now();
  const proc = Bun.spawn(suite.cmd, { cwd: root, stdout: "pipe", stderr: "pipe", env: { ...process.env, TMPDIR: scratch } });
  let output = "";
  const pump = async (stream: ReadableStream<Uint8Array>, sink: NodeJS.WriteStream) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
      const text = decoder.decode(chunk, { stream: true });
      output += text;
      sink.write(text);
    }
  };
  await Promise.all([pump(proc.stdout, process.stdout), pump(proc.stderr, process.stderr)]);
  const code = await proc.exited;
  const counts = suite.count(output, code) ?? { passed: 0, failed: 1 };
  // A runner that died after printing its summary still failed.
  if (code !== 0 && counts.failed === 0) counts.failed = 1;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`=== ${suite.name}: ${counts.passed} passed, ${counts.failed} failed (${seconds} s)`);
  return counts;
}

let passed = 0;
let failed = 0;
for (const suite of SUITES) {
  const r = await run(suite);
  passed += r.passed;
  failed += r.failed;
}
rmSync(scratch, { recursive: true, force: true });
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
