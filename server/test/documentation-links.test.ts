import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/*
 * The README is the front door and docs/ holds the rest: a link that moved with a section, or a setting added to
 * config.ts without a line on the configuration page, leaves a reader at a dead end. These checks read the files
 * as GitHub renders them.
 */

const ROOT = resolve(import.meta.dir, "../..");
const DOCS = join(ROOT, "docs");
const pages = [
  "README.md",
  ...readdirSync(DOCS)
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** Markdown without fenced code blocks and code spans: a link-like text inside code is not a link. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "");
}

/** GitHub's anchor for a heading: lower case, punctuation dropped (except - and _), spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor a Markdown file offers, with GitHub's -1, -2 suffixes for repeated headings. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of markdown.replace(/^```[\s\S]*?^```/gm, "").split("\n")) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** The relative link targets of a page (inline links and images), external ones left out. */
function relativeLinks(markdown: string): string[] {
  const out: string[] = [];
  for (const m of prose(markdown).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const target = m[1]!;
    if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) out.push(target);
  }
  return out;
}

/** What is wrong with one link from one page, or null when it resolves. */
function brokenLink(page: string, target: string): string | null {
  const hash = target.indexOf("#");
  const path = hash === -1 ? target : target.slice(0, hash);
  const anchor = hash === -1 ? "" : decodeURIComponent(target.slice(hash + 1));
  const file = path === "" ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), decodeURIComponent(path));
  if (relative(ROOT, file).startsWith("..")) return `${page}: ${target} points outside the repository`;
  if (!existsSync(file)) return `${page}: ${target}: no such file`;
  if (anchor === "") return null;
  if (statSync(file).isDirectory() || !file.endsWith(".md")) return `${page}: ${target}: an anchor into a file that has no headings`;
  return anchors(readFileSync(file, "utf8")).has(anchor) ? null : `${page}: ${target}: no heading with that anchor`;
}

/**
 * The settings config.ts reads: `env.NAME`, and `helper(env, "NAME", …)` where a helper that builds names from its
 * argument (`${name}_BURST`) stands for each name it builds.
 */
function configSettings(): string[] {
  const source = readFileSync(join(ROOT, "server/src/config.ts"), "utf8");
  const suffixes = new Map<string, string[]>();
  for (const m of source.matchAll(/function (\w+)\(env: Env, name: string[^)]*\)[^{]*\{([\s\S]*?)\n\}/g)) {
    const built = [...m[2]!.matchAll(/\$\{name\}(_[A-Z0-9_]+)/g)].map((s) => s[1]!);
    if (built.length > 0) suffixes.set(m[1]!, [...new Set(built)]);
  }
  const names = new Set<string>();
  for (const m of source.matchAll(/\benv\.([A-Z][A-Z0-9_]*)/g)) names.add(m[1]!);
  for (const m of source.matchAll(/\b(\w+)\(env, "([A-Z][A-Z0-9_]*)"/g)) {
    for (const suffix of suffixes.get(m[1]!) ?? [""]) names.add(m[2]! + suffix);
  }
  return [...names].sort();
}

/** Variables read from process.env outside config.ts (CLIs, the demo store). */
function otherEnvReads(): string[] {
  const names = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".ts")) {
        for (const m of readFileSync(path, "utf8").matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g)) names.add(m[1]!);
      }
    }
  };
  walk(join(ROOT, "server/src"));
  walk(join(ROOT, "demo-store/src"));
  return [...names].sort();
}

describe("documentation", () => {
  test("every relative link and anchor in README.md and docs/*.md resolves", () => {
    const broken: string[] = [];
    let checked = 0;
    for (const page of pages) {
      for (const target of relativeLinks(readFileSync(join(ROOT, page), "utf8"))) {
        checked++;
        const problem = brokenLink(page, target);
        if (problem) broken.push(problem);
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(20);
  });

  test("the anchor rules are GitHub's", () => {
    expect(slug("Similar products (`GET /{v}/similarity`, search key)")).toBe("similar-products-get-vsimilarity-search-key");
    expect(slug("Limits against hostile input, and why")).toBe("limits-against-hostile-input-and-why");
    expect([...anchors("# A\n## Notes\n```\n# not a heading\n```\n## Notes\n")]).toEqual(["a", "notes", "notes-1"]);
    expect(brokenLink("README.md", "docs/operations.md#no-such-heading")).toContain("no heading");
    expect(brokenLink("README.md", "docs/no-such-page.md")).toContain("no such file");
  });

  test("every setting the server reads is on the configuration page", () => {
    const page = readFileSync(join(DOCS, "configuration.md"), "utf8");
    const settings = [...configSettings(), ...otherEnvReads()];
    expect(settings).toContain("RATE_LIMIT_BROWSER_BURST");
    expect(settings).toContain("TYPESENSE_RETRIES");
    expect(settings.filter((name) => !page.includes("`" + name + "`"))).toEqual([]);
  });

  test("the README stays a front door", () => {
    expect(statSync(join(ROOT, "README.md")).size).toBeLessThanOrEqual(20 * 1024);
  });
});
