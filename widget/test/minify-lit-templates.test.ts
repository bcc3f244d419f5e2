import { expect, test } from "bun:test";
import { minifyLitTemplates } from "../scripts/minify-lit-templates.ts";

/** Runs a module's code with tags that return what Lit would receive: the CSS text, the HTML's static parts. */
function run(code: string): { css?: string; html?: readonly string[]; values?: unknown[] } {
  const css = (strings: TemplateStringsArray) => strings.join("");
  const html = (strings: TemplateStringsArray, ...values: unknown[]) => ({ strings: [...strings], values });
  const out = new Function(
    "css",
    "html",
    `${code}; return { css: typeof styles === "undefined" ? undefined : styles, view: typeof view === "undefined" ? undefined : view };`,
  )(css, html) as { css?: string; view?: { strings: string[]; values: unknown[] } };
  return { css: out.css, html: out.view?.strings, values: out.view?.values };
}

test("a css template is minified; custom properties, parts, classes and escapes stay", () => {
  const code = [
    "const styles = css`",
    "  :host {",
    "    display: block;",
    "    color: var(--sfs-color-text, #ffffff);",
    "  }",
    '  [part~="card"] .price::before {',
    '    content: "\\\\201C \\` \\${";',
    "  }",
    "`;",
  ].join("\n");
  const minified = minifyLitTemplates(code, "card.styles.js");
  expect(minified).not.toContain("\n  ");
  const css = run(minified).css!;
  expect(css).toContain(":host{");
  expect(css).toContain("var(--sfs-color-text,#fff)");
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the characters a template literal must escape, as CSS text
  expect(css).toContain('[part~=card] .price:before{content:"“` ${"}');
});

test("a css template with an interpolation is left as written", () => {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a module with an interpolation
  const code = "const styles = css`\n  :host {\n    width: ${1}px;\n  }\n`;";
  expect(minifyLitTemplates(code, "x.js")).toBe(code);
});

test("in an html template, whitespace spanning lines becomes one space; bindings and same-line spaces stay", () => {
  const code = `const view = html\`<section part="base">
      <h2 part="title">\${"Similar"}</h2>
      <button class="a
        b" @click=\${() => 1}>Two  words</button>
    </section>\`;`;
  const { html, values } = run(minifyLitTemplates(code, "x.js"));
  expect(html).toEqual(['<section part="base"> <h2 part="title">', '</h2> <button class="a b" @click=', ">Two  words</button> </section>"]);
  expect(values).toHaveLength(2);
});

test("other templates and code without Lit templates are unchanged", () => {
  const code = "const sql = String.raw`\n  select 1\n`; const text = `\n  a\n`; const styles = undefined; const view = undefined;";
  expect(minifyLitTemplates(code, "x.js")).toBe(code);
  expect(minifyLitTemplates("export const n = 1;\n", "x.js")).toBe("export const n = 1;\n");
});
