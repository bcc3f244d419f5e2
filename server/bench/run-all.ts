/* `npm run bench`: every benchmark in server/bench, one after another (each prints its own table). */
const BENCHES = [
  "ingest-bench.ts",
  "search-bench.ts",
  "meaning-bench.ts",
  "hostile-search-bench.ts",
  "event-flood-bench.ts",
  "compression-bench.ts",
  "reports-bench.ts",
  "experiments-bench.ts",
  "image-colours-bench.ts",
  "merchandising-bench.ts",
  "event-store-bench.ts",
  "vector-bench.ts",
  "instantsearch-bench.ts",
  "learning-bench.ts",
];
for (const file of BENCHES) {
  const proc = Bun.spawn([process.execPath, `${import.meta.dir}/${file}`, ...process.argv.slice(2)], {
    stdout: "inherit",
    stderr: "inherit",
  });
  if ((await proc.exited) !== 0) process.exit(1);
}
