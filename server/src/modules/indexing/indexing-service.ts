import type { CatalogRepo } from "../../db/catalog-repo.ts";
import type { TaskKind, TaskReport, TaskRow, TasksRepo } from "../../db/tasks-repo.ts";
import { NotFoundError } from "../../errors.ts";
import type { Product } from "../catalog/product-schema.ts";
import type { RejectedProduct, ValidationReport } from "../catalog/validate-products.ts";

export interface TaskView {
  status: TaskRow["status"];
  createdAt: string;
  updatedAt: string;
  message?: string;
  itemCount: number;
  processedCount: number;
  warnings: number;
  rejectedCount: number;
  rejected: RejectedProduct[];
}

/** Accepting indexing work: a task is acknowledged only once it and its payload are committed. */
export class IndexingService {
  constructor(
    private readonly tasks: TasksRepo,
    private readonly catalog: CatalogRepo,
    private readonly now: () => number,
    private readonly onEnqueued: () => void,
  ) {}

  /** `itemsJson`: the items already as JSON, when the caller has them so. */
  private enqueue(storeId: string, kind: TaskKind, items: unknown[], report?: TaskReport, itemsJson?: string): string {
    const id = crypto.randomUUID();
    this.tasks.insert({ id, storeId, kind, payload: itemsJson ?? JSON.stringify(items), itemCount: items.length, now: this.now(), report });
    this.onEnqueued();
    return id;
  }

  /**
   * The accepted products become the task; what validation dropped or refused is stored with it, in the same row.
   * `productsJson`: the products exactly as JSON (the request body when validation changed nothing).
   */
  upsert(storeId: string, products: Product[], report?: ValidationReport, productsJson?: string): string {
    return this.enqueue(storeId, "upsert", products, report && { ...report, rejected: JSON.stringify(report.rejected) }, productsJson);
  }

  remove(storeId: string, productId: string): string {
    return this.enqueue(storeId, "delete", [productId]);
  }

  task(storeId: string, taskId: string): TaskView {
    const t = this.tasks.get(storeId, taskId);
    if (!t) throw new NotFoundError(`No task "${taskId}" in this store`);
    return {
      status: t.status,
      createdAt: new Date(t.createdAt).toISOString(),
      updatedAt: new Date(t.updatedAt).toISOString(),
      ...(t.status === "error" && t.message ? { message: t.message } : {}),
      itemCount: t.itemCount,
      processedCount: t.cursor,
      warnings: t.report.warnings,
      rejectedCount: t.report.rejectedCount,
      rejected: JSON.parse(t.report.rejected) as RejectedProduct[],
    };
  }

  product(storeId: string, productId: string): { product: Product; version: number; updatedAt: string } {
    const entry = this.catalog.get(storeId, productId);
    if (!entry || entry.deleted || !entry.doc) throw new NotFoundError(`No product "${productId}" in this store`);
    return { product: JSON.parse(entry.doc), version: entry.version, updatedAt: new Date(entry.updatedAt).toISOString() };
  }
}
