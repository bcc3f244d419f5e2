/*
 * The insights client, also served as a module of its own (vite.config.ts, mode "insights"): a page without a
 * build step that sends InstantSearch's events imports it beside the search client, which stays within its budget.
 */
export { createInsightsClient, type InsightsClient, type InsightsClientOptions } from "./insights-client.ts";
