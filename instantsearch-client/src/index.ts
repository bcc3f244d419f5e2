/* The package as a bundler imports it: the search client (served.ts, also served as one module) and the insights client. */
export * from "./served.ts";
export { createInsightsClient, type InsightsClient, type InsightsClientOptions } from "./insights-client.ts";
