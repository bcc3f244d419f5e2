import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pageHtml, STAFF_PAGES_DIR } from "../../staff-pages/scripts/build-if-stale.ts";
import { SHELL_HTML, STAFF_PAGES, type StaffPage } from "../../staff-pages/src/pages.ts";

/* Every staff page is the one shell (staff-pages/src/shell/page.html) around its own content, as the build writes it. */

const src = (file: string) => readFileSync(join(STAFF_PAGES_DIR, "src", file), "utf8");
const shell = src(SHELL_HTML);
const built = (name: string, page: StaffPage) => pageHtml(shell, name, page, src(page.content));

describe("the staff pages' shell", () => {
  for (const [name, page] of Object.entries(STAFF_PAGES) as [string, StaffPage][]) {
    test(`${name}: one head, header and sign-in form around the page's content, its assets loaded in order`, () => {
      const html = built(name, page);
      expect(html.match(/<title>(.*)<\/title>/g)).toEqual([`<title>${page.title}</title>`]);
      expect(html.match(/<h1>.*<\/h1>/g)).toEqual([`<h1>${page.heading}</h1>`]);
      expect(html.match(/id="sign-in-form"/g)).toHaveLength(1);
      expect(html.match(/id="sign-out"/g)).toHaveLength(1);
      expect(html).not.toMatch(/<!-- (title|head|heading|content) -->/);
      const loaded = [...html.matchAll(/<(?:link rel="stylesheet" href|script[^>]*src)="\/([^"]+)"/g)].map((m) => m[1]);
      expect(loaded).toEqual(page.head.map((asset) => `${name}/assets/${asset}`));
      const content = src(page.content).trim();
      const at = html.indexOf(content);
      expect(at).toBeGreaterThan(html.indexOf("</form>"));
      expect(at).toBeLessThan(html.indexOf("</main>"));
      // The shell's ids and the content's are one document's: none may be used twice.
      const ids = [...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
      expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    });
  }

  test("a title and heading are written as text, and a head that names an asset the page lacks fails the build", () => {
    const page: StaffPage = { ...STAFF_PAGES.merchandising, title: 'Rules & <"pins">', heading: "A < B" };
    const html = pageHtml(shell, "merchandising", page, "<p>content</p>");
    expect(html).toContain("<title>Rules &amp; &lt;&quot;pins&quot;&gt;</title>");
    expect(html).toContain("<h1>A &lt; B</h1>");
    expect(() => pageHtml(shell, "merchandising", { ...page, head: ["missing.js"] }, "")).toThrow(
      "The merchandising page's head names missing.js, which is none of its assets",
    );
    expect(() => pageHtml(shell.replace("<!-- content -->", ""), "merchandising", page, "")).toThrow(/must hold <!-- content --> once/);
  });
});
