import { transform as transformCss } from "lightningcss";
import { parseAst, type Plugin } from "vite";

/*
 * Every shopper downloads the head script, and the components' css`` and html`` templates are written for people:
 * indented, one declaration a line. This build step minifies them in the widget's own modules (after TypeScript is
 * stripped, before bundling): CSS through lightningcss, which Vite already installs for its own CSS; in HTML only
 * runs of whitespace that span a line break become one space, which renders the same (the widget has no <pre>,
 * <textarea> or white-space: pre content). Part names, custom properties and class names are left as written.
 */

interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

interface TemplateElement extends Node {
  value: { raw: string; cooked: string | null };
}

interface TemplateLiteral extends Node {
  quasis: TemplateElement[];
  expressions: Node[];
}

const LINE_SPANNING_WHITESPACE = /[ \t]*\r?\n\s*/g;

/** The minified CSS of a css`` template without interpolations, as the raw text of a template literal. */
export function minifyCss(cooked: string, filename: string): string {
  const { code } = transformCss({ filename, code: Buffer.from(cooked), minify: true });
  return code.toString().replace(/[\\`]|\$\{/g, (c) => `\\${c}`);
}

/** The raw text of one static part of an html`` template with whitespace runs spanning lines folded to a space. */
export const minifyHtml = (raw: string): string => raw.replace(LINE_SPANNING_WHITESPACE, " ");

function* taggedTemplates(node: unknown): Generator<{ tag: string; quasi: TemplateLiteral }> {
  if (Array.isArray(node)) {
    for (const child of node) yield* taggedTemplates(child);
    return;
  }
  if (!node || typeof node !== "object" || typeof (node as Node).type !== "string") return;
  const n = node as Node;
  if (n.type === "TaggedTemplateExpression" && (n.tag as Node).type === "Identifier")
    yield { tag: (n.tag as Node & { name: string }).name, quasi: n.quasi as TemplateLiteral };
  for (const key in n) if (key !== "type" && key !== "start" && key !== "end") yield* taggedTemplates(n[key]);
}

/** A module's code with its css`` and html`` templates minified (the tags as Lit's, imported under their own names). */
export function minifyLitTemplates(code: string, filename: string): string {
  if (!code.includes("css`") && !code.includes("html`")) return code;
  const edits: { start: number; end: number; text: string }[] = [];
  for (const { tag, quasi } of taggedTemplates(parseAst(code, { lang: "js" }, filename))) {
    if (tag === "css" && quasi.expressions.length === 0 && quasi.quasis[0]?.value.cooked != null) {
      const [part] = quasi.quasis as [TemplateElement];
      edits.push({ start: part.start, end: part.end, text: minifyCss(part.value.cooked!, filename) });
    } else if (tag === "html") {
      for (const part of quasi.quasis) edits.push({ start: part.start, end: part.end, text: minifyHtml(part.value.raw) });
    }
  }
  let out = code;
  for (const { start, end, text } of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, start) + text + out.slice(end);
  return out;
}

/** The Vite plugin: applies minifyLitTemplates to the widget's own modules in a build. */
export function minifyLitTemplatesPlugin(srcDir: string): Plugin {
  return {
    name: "sfs-minify-lit-templates",
    apply: "build",
    transform: {
      filter: { id: { include: new RegExp(`^${srcDir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/.*\\.ts$`) } },
      handler(code, id) {
        return { code: minifyLitTemplates(code, id), map: null };
      },
    },
  };
}
