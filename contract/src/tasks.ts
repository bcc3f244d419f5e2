/*
 * Indexing as the admin API answers it: POST /products and DELETE /products/{id} queue a task (202), and
 * GET /tasks/{id} tells how far it got.
 */

export interface ProductProblem {
  /** Where in the product, e.g. "skus[0].availability". */
  path: string;
  message: string;
}

/** An invalid product of a bulk: where it was, its id when it has a usable one, and its first problems. */
export interface RejectedProduct extends ProductProblem {
  index: number;
  productId?: string;
  otherProblems?: ProductProblem[];
}

/** What validation dropped or refused of a POST /products body. */
export interface ValidationReport {
  /** Null optional fields and blank strings dropped from the accepted products. */
  warnings: number;
  /** Invalid products left out of the task. */
  rejectedCount: number;
  /** The first 100 of them, in body order. */
  rejected: RejectedProduct[];
}

/** DELETE /products/{id} (202). */
export interface TaskAccepted {
  taskId: string;
}

/** POST /products (202): the task of the valid products, and what validation left out. */
export interface ProductsAccepted extends TaskAccepted, ValidationReport {
  /** Products in the task. */
  accepted: number;
}

export type TaskStatus = "pending" | "complete" | "error";

/** GET /tasks/{id}. */
export interface IndexingTask extends ValidationReport {
  status: TaskStatus;
  createdAt: string;
  /** Changes as a bulk task progresses. */
  updatedAt: string;
  /** Why the task failed (status error). */
  message?: string;
  itemCount: number;
  processedCount: number;
}

/**
 * GET /products/{id}: a product as the store sent it, its version and when it was written. `P` is the catalog's
 * product schema on the server (server/src/modules/catalog/product-schema.ts); a page needs only its name.
 */
export interface StoredProduct<P = { name: string }> {
  product: P;
  version: number;
  updatedAt: string;
}
