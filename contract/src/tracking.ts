/** One event of POST /tracking. */
export interface TrackingEvent {
  type: string;
  data: Record<string, unknown>;
  userId: string;
  sessionId: string;
  storeId: string;
}

/** Most events one POST /tracking request may carry. */
export const MAX_EVENTS_PER_REQUEST = 500;
