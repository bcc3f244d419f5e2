/*
 * `npm run bench`: every benchmark in server/bench, one after another (each prints its own table). An entry may
 * carry flags of its own after the file, which flags given to run-all come before (so theirs win).
 */
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
  "million-bench.ts --size 50000",
];
for (const entry of BENCHES) {
  const [file, ...flags] = entry.split(" ");
  const proc = Bun.spawn([process.execPath, `${import.meta.dir}/${file}`, ...process.argv.slice(2), ...flags], {
    stdout: "inherit",
    stderr: "inherit",
  });
  if ((await proc.exited) !== 0) process.exit(1);
}
