/** One event of POST /tracking. */
export interface TrackingEvent {
  type: string;
  data: Record<string, unknown>;
  userId: string;
  sessionId: string;
  storeId: string;
}
