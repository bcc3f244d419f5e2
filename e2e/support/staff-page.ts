import type { Page } from "@playwright/test";
import { expect, type Demo } from "./fixtures.ts";

/** Opens a staff page (`/merchandising`, `/experiments`), signing in unless this tab already did (sessionStorage). */
export async function openStaffPage(demo: Demo, page: Page, path: string): Promise<void> {
  await page.goto(`${demo.base}${path}`);
  await expect(page.locator("#workspace:not([hidden]), #sign-in:not([hidden])").first()).toBeVisible();
  if (await page.locator("#workspace").isVisible()) return;
  await page.locator("#store-id").fill(demo.keys.storeId);
  await page.locator("#admin-key").fill(demo.keys.adminKey);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator("#workspace")).toBeVisible();
}
