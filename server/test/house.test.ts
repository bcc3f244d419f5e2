import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/*
 * The house as docs/architecture.md draws it, held against the imports: which layer may import which, where a
 * module's storage adapters and routes may be imported from, and no import circles. Read from the source text
 * (static and dynamic imports, re-exports), so a change that breaks the layout fails here with the import named.
 */

const ROOT = resolve(import.meta.dir, "../..");

interface Import {
  from: string;
  to: string;
  /** `import type` / `export type`, or every name imported with `type`: gone once compiled. */
  typeOnly: boolean;
}

const STATIC = /(?:^|\n)\s*(import|export)\s+(type\s+)?([^;"'`]*?)\s*from\s*["']([^"']+)["']/g;
const DYNAMIC = /import\(\s*["']([^"']+)["']\s*\)/g;

function importsOf(file: string): Import[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const out: Import[] = [];
  const add = (spec: string, typeOnly: boolean) => {
    if (!spec.startsWith(".")) return;
    out.push({ from: file, to: relative(ROOT, resolve(ROOT, dirname(file), spec)), typeOnly });
  };
  for (const m of text.matchAll(STATIC)) {
    const braced = /^\{([\s\S]*)\}$/.exec(m[3]!.trim());
    const names = braced
      ? braced[1]!
          .split(",")
          .map((n) => n.trim())
          .filter(Boolean)
      : [];
    const everyNameTyped = names.length > 0 && names.every((n) => n.startsWith("type "));
    add(m[4]!, Boolean(m[2]) || everyNameTyped);
  }
  for (const m of text.matchAll(DYNAMIC)) add(m[1]!, false);
  return out;
}

const sourceFiles = (dir: string) =>
  [...new Bun.Glob("**/*.ts").scanSync({ cwd: join(ROOT, dir) })].filter((f) => !f.endsWith(".d.ts")).map((f) => join(dir, f));

const SERVER = sourceFiles("server/src");
const SERVER_IMPORTS = SERVER.flatMap(importsOf);

/** The server's layers, lowest first: a file may import its own layer and those below it. */
const LAYERS: { name: string; holds: (path: string) => boolean }[] = [
  {
    name: "foundation",
    holds: (p) =>
      /^server\/src\/(text\/|lib\/|(errors|log|utf8-text|json-text|schema-clean|schema-check|config|thread-channel)\.ts$)/.test(p),
  },
  { name: "platform", holds: (p) => p.startsWith("server/src/platform/") },
  { name: "engine", holds: (p) => p.startsWith("server/src/engine/") },
  { name: "http", holds: (p) => p.startsWith("server/src/http/") },
  { name: "modules", holds: (p) => p.startsWith("server/src/modules/") },
  {
    name: "composition",
    holds: (p) => /^server\/src\/(composition\/|threads\/|cli\/|main\.ts$)/.test(p),
  },
];

const layerOf = (path: string) => LAYERS.findIndex((l) => l.holds(path));
const moduleOf = (path: string) => /^server\/src\/modules\/([^/]+)\//.exec(path)?.[1];

/** Strongly connected groups of more than one node (Tarjan), each sorted, for messages that name the circle. */
function circles(edges: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return found;
}

function graph(imports: Import[], node: (path: string) => string | undefined): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const i of imports) {
    const [a, b] = [node(i.from), node(i.to)];
    if (!a || !b || a === b) continue;
    if (!edges.has(a)) edges.set(a, new Set());
    edges.get(a)!.add(b);
  }
  return edges;
}

describe("the house", () => {
  test("every server file sits in a layer", () => {
    expect(SERVER.filter((f) => layerOf(f) < 0)).toEqual([]);
  });

  test("no server import runs from a lower layer to a higher one", () => {
    const upward = SERVER_IMPORTS.filter((i) => layerOf(i.to) > layerOf(i.from)).map(
      (i) => `${i.from} (${LAYERS[layerOf(i.from)]!.name}) -> ${i.to} (${LAYERS[layerOf(i.to)]!.name})`,
    );
    expect(upward).toEqual([]);
  });

  test("modules import each other without circles", () => {
    expect(circles(graph(SERVER_IMPORTS, moduleOf))).toEqual([]);
  });

  test("no import circle between files, type-only ones included", () => {
    const all = ["server/src", "contract/src", "widget/src", "instantsearch-client/src", "staff-pages/src", "demo-store/src"]
      .flatMap(sourceFiles)
      .flatMap(importsOf);
    expect(circles(graph(all, (p) => p))).toEqual([]);
  });

  test("a module's storage adapters and routes are wired by the composition root, not imported by other modules", () => {
    const misplaced = SERVER_IMPORTS.filter((i) => {
      const [from, to] = [moduleOf(i.from), moduleOf(i.to)];
      if (!from || !to || from === to) return false;
      const dialect = /\.(sqlite|postgres)\.ts$/.exec(i.to)?.[1];
      // One transaction spanning features' tables: an adapter writes another's through its helpers of the same dialect.
      if (dialect) return !i.from.endsWith(`.${dialect}.ts`);
      return i.to.endsWith("-routes.ts");
    });
    expect(misplaced.map((i) => `${i.from} -> ${i.to}`)).toEqual([]);
  });

  test("the contract imports nothing of the workspaces that use it, nothing imports the widget's sources, and the browser's packages only the contract", () => {
    const crossings = ["contract/src", "server/src", "staff-pages/src", "demo-store/src", "widget/src", "instantsearch-client/src"]
      .flatMap(sourceFiles)
      .flatMap(importsOf)
      .filter((i) => {
        const [from, to] = [i.from.split("/")[0], i.to.split("/")[0]];
        if (from === to) return false;
        const browser = from === "widget" || from === "instantsearch-client";
        return from === "contract" || i.to.startsWith("widget/src/") || (browser && to !== "contract");
      });
    expect(crossings.map((i) => `${i.from} -> ${i.to}`)).toEqual([]);
  });

  test("the demo store reaches the server only through the entry points that start it; wire shapes come from the contract", () => {
    const entryPoints = ["server/src/config.ts", "server/src/composition/start-service.ts", "server/src/modules/stores/api-keys.ts"];
    const internals = sourceFiles("demo-store/src")
      .flatMap(importsOf)
      .filter((i) => i.to.startsWith("server/") && !entryPoints.includes(i.to));
    expect(internals.map((i) => `${i.from} -> ${i.to}`)).toEqual([]);
  });
});
