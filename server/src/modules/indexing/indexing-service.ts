import type { CatalogRepository } from "../../db/catalog-repository.ts";
import type { TaskKind, TaskReport, TaskRow, TasksRepository } from "../../db/tasks-repository.ts";
import { NotFoundError } from "../../errors.ts";
import type { Product } from "../catalog/product-schema.ts";
import type { RejectedProduct, ValidationReport } from "../catalog/validate-products.ts";
import type { Utf8Text } from "../../utf8-text.ts";

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
    private readonly tasks: TasksRepository,
    private readonly catalog: CatalogRepository,
    private readonly now: () => number,
    private readonly onEnqueued: () => void,
  ) {}

  /** `itemsJson`: the items already as JSON, when the caller has them so. */
  private async enqueue(storeId: string, kind: TaskKind, items: unknown[], report?: TaskReport, itemsJson?: Utf8Text): Promise<string> {
    const id = crypto.randomUUID();
    await this.tasks.insert({ id, storeId, kind, payload: itemsJson ?? JSON.stringify(items), itemCount: items.length, now: this.now(), report });
    this.onEnqueued();
    return id;
  }

  /**
   * The accepted products become the task; what validation dropped or refused is stored with it, in the same row.
   * `productsJson`: the products exactly as JSON (the request body when validation changed nothing).
   */
  upsert(storeId: string, products: Product[], report?: ValidationReport, productsJson?: Utf8Text): Promise<string> {
    return this.enqueue(storeId, "upsert", products, report && { ...report, rejected: JSON.stringify(report.rejected) }, productsJson);
  }

  remove(storeId: string, productId: string): Promise<string> {
    return this.enqueue(storeId, "delete", [productId]);
  }

  async task(storeId: string, taskId: string): Promise<TaskView> {
    const t = await this.tasks.get(storeId, taskId);
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

  async product(storeId: string, productId: string): Promise<{ product: Product; version: number; updatedAt: string }> {
    const entry = await this.catalog.get(storeId, productId);
    if (!entry || entry.deleted || !entry.doc) throw new NotFoundError(`No product "${productId}" in this store`);
    return { product: JSON.parse(entry.doc), version: entry.version, updatedAt: new Date(entry.updatedAt).toISOString() };
  }
}
