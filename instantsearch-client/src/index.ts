/* The package as a bundler imports it: the search client and the insights client (each also served as one module). */
export * from "./insights.ts";
export * from "./served.ts";
