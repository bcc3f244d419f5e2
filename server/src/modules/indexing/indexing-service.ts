import type { IndexingTask, ProductsAccepted, RejectedProduct, StoredProduct, ValidationReport } from "@storefront-search/contract";
import type { CatalogRepository } from "../catalog/storage/catalog-repository.ts";
import type { TaskKind, TasksRepository } from "./storage/tasks-repository.ts";
import { NotFoundError } from "../../errors.ts";
import type { Product } from "../catalog/product-schema.ts";
import type { Utf8Text } from "../../utf8-text.ts";
import { acceptBulk, type AcceptedBulk } from "./accepted-bulk.ts";

/** Accepting indexing work: a task is acknowledged only once it and its payload are committed. */
export class IndexingService {
  constructor(
    private readonly tasks: TasksRepository,
    private readonly catalog: CatalogRepository,
    private readonly now: () => number,
    private readonly onEnqueued: () => void,
    /** Validates a POST /products body for the task of that id (the indexing thread's accept; by default here). */
    private readonly validate: (body: Uint8Array, taskId: string) => Promise<AcceptedBulk> = async (body) => acceptBulk(body).accepted,
  ) {}

  private async enqueue(
    storeId: string,
    kind: TaskKind,
    itemCount: number,
    payload: Utf8Text,
    report?: ValidationReport,
    id: string = crypto.randomUUID(),
  ): Promise<string> {
    await this.tasks.insert({
      id,
      storeId,
      kind,
      payload,
      itemCount,
      now: this.now(),
      report: report && { ...report, rejected: JSON.stringify(report.rejected) },
    });
    this.onEnqueued();
    return id;
  }

  /**
   * A POST /products body: its valid products become the task; what validation dropped or refused is stored with
   * it, in the same row, and returned.
   */
  async accept(storeId: string, body: Uint8Array): Promise<ProductsAccepted> {
    const taskId = crypto.randomUUID();
    const { report, accepted, payload } = await this.validate(body, taskId);
    return { taskId: await this.enqueue(storeId, "upsert", accepted, payload, report, taskId), accepted, ...report };
  }

  remove(storeId: string, productId: string): Promise<string> {
    return this.enqueue(storeId, "delete", 1, JSON.stringify([productId]));
  }

  async task(storeId: string, taskId: string): Promise<IndexingTask> {
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

  async product(storeId: string, productId: string): Promise<StoredProduct<Product>> {
    const entry = await this.catalog.get(storeId, productId);
    if (!entry || entry.deleted || !entry.doc) throw new NotFoundError(`No product "${productId}" in this store`);
    return { product: JSON.parse(entry.doc), version: entry.version, updatedAt: new Date(entry.updatedAt).toISOString() };
  }
}
