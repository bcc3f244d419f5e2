/*
 * axe-core (from node_modules) on a page: WCAG 2.0–2.2 A and AA, and axe's best practices (heading order,
 * landmarks), which issue 16 counted too.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "@playwright/test";

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa", "best-practice"];

/** The violations axe-core finds on the page as it is now, one line each. */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through DevTools rather than added as a script tag, which a page's strict CSP would refuse.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE);
  return page.evaluate(async (tags) => {
    const axe = (
      window as unknown as {
        axe: { run(ctx: Document, o: object): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> };
      }
    ).axe;
    const { violations } = await axe.run(document, { runOnly: { type: "tag", values: tags } });
    return violations.map(
      (v) =>
        `${v.id} on ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(" "))
          .join(" | ")}`,
    );
  }, AXE_TAGS);
}
