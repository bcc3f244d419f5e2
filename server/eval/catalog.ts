import { loadConfig } from "../src/config.ts";
import { demoProducts } from "../test/support/demo-products.ts";

/** The products every system indexes: the first EVAL_PRODUCTS of the demo catalog's balanced sample. */
export const EVAL_PRODUCTS = 20_000;
export const evalProducts = (limit = EVAL_PRODUCTS) => demoProducts(limit);
export const demoDataDir = () => loadConfig({}).demoCatalog.dir;
