import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { Product } from "@storefront-search/contract";

/*
 * The converted demo catalog, kept in the data directory under its fingerprint (catalogFingerprint: converter,
 * options, source files), so a start with nothing changed reads it back instead of converting again (measured on
 * the full catalog: about 1 s against about 10 s). JSON lines: a header saying which catalog it is and how many
 * products it holds, then one line per bulk, byte for byte the body that was sent to the API, so keeping it costs
 * no second serialisation. Written to a temporary name and renamed when complete: a file under a fingerprint's
 * name is always whole.
 */

const FORMAT = "demo-catalog-cache/1";

export interface Bulk {
  /** The bulk as the JSON array POST /products takes. */
  readonly json: string;
  readonly count: number;
  /** Parsed from `json` when first read: while the catalog is being indexed, the pages seldom need them. */
  readonly products: Product[];
}

export function bulkOf(json: string, count: number, parsed?: Product[]): Bulk {
  let products = parsed;
  return {
    json,
    count,
    get products() {
      return (products ??= JSON.parse(json) as Product[]);
    },
  };
}

interface Header {
  format: string;
  fingerprint: string;
  products: number;
}

export class CatalogCache {
  constructor(readonly dir: string) {}

  fileFor(fingerprint: string): string {
    return join(this.dir, `${fingerprint}.jsonl`);
  }

  /** True when no converted catalog is kept at all (a first start, or a data directory from before the cache). */
  isEmpty(): boolean {
    return !existsSync(this.dir) || !readdirSync(this.dir).some((name) => name.endsWith(".jsonl"));
  }

  /**
   * How many products are kept under this fingerprint, from the file's header alone; null when there is no such
   * file. A file under a fingerprint's name was complete when renamed there, so its header speaks for it.
   */
  products(fingerprint: string): number | null {
    const file = this.fileFor(fingerprint);
    if (!existsSync(file)) return null;
    const fd = openSync(file, "r");
    try {
      const start = Buffer.alloc(4096);
      const header = JSON.parse(start.toString("utf8", 0, readSync(fd, start)).split("\n")[0]!) as Header;
      return header.format === FORMAT && header.fingerprint === fingerprint && Number.isInteger(header.products) ? header.products : null;
    } catch {
      return null;
    } finally {
      closeSync(fd);
    }
  }

  /** The bulks kept under this fingerprint; null when there are none or the file does not hold what its header says. */
  read(fingerprint: string): Bulk[] | null {
    const file = this.fileFor(fingerprint);
    if (!existsSync(file)) return null;
    try {
      const [headerLine, ...lines] = readFileSync(file, "utf8")
        .split("\n")
        .filter((line) => line !== "");
      const header = JSON.parse(headerLine ?? "") as Header;
      if (header.format !== FORMAT || header.fingerprint !== fingerprint) return null;
      const bulks = lines.map((json) => {
        const products = JSON.parse(json) as Product[];
        return bulkOf(json, Array.isArray(products) ? products.length : -1, products);
      });
      const count = bulks.reduce((sum, b) => sum + b.count, 0);
      return count === header.products && bulks.every((b) => b.count >= 0) ? bulks : null;
    } catch {
      // A damaged cache is only a lost shortcut: the caller converts again and replaces it.
      return null;
    }
  }

  /** Collects bulks as they are converted; `commit` makes them the cache for this fingerprint and drops older ones. */
  writer(fingerprint: string, products: number): CacheWriter {
    mkdirSync(this.dir, { recursive: true });
    const final = this.fileFor(fingerprint);
    const temp = `${final}.${process.pid}.tmp`;
    const fd = openSync(temp, "w");
    const header: Header = { format: FORMAT, fingerprint, products };
    writeSync(fd, JSON.stringify(header) + "\n");
    let open = true;
    return {
      add: (bulk) => {
        if (open) writeSync(fd, bulk.json + "\n");
      },
      commit: () => {
        if (!open) return;
        open = false;
        closeSync(fd);
        renameSync(temp, final);
        for (const name of readdirSync(this.dir)) {
          if (name !== `${fingerprint}.jsonl`) rmSync(join(this.dir, name), { force: true });
        }
      },
      abort: () => {
        if (!open) return;
        open = false;
        closeSync(fd);
        rmSync(temp, { force: true });
      },
    };
  }
}

export interface CacheWriter {
  add(bulk: Bulk): void;
  commit(): void;
  abort(): void;
}

/** Passes bulks through, keeping each in the cache; the cache is committed only when all of them went through. */
export async function* keepWhileReading(bulks: AsyncIterable<Bulk>, writer: CacheWriter): AsyncGenerator<Bulk> {
  try {
    for await (const bulk of bulks) {
      writer.add(bulk);
      yield bulk;
    }
    writer.commit();
  } finally {
    writer.abort();
  }
}
