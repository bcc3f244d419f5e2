export * from "./facet-param.ts";
export * from "./locale.ts";
export * from "./multi-search.ts";
export * from "./search.ts";
export * from "./suggestions.ts";
export * from "./tracking.ts";
export * from "./widget-config.ts";
