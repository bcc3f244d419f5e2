/** A request the service cannot answer as asked: thrown before anything is sent, naming what to change. */
export class UnsupportedSearchError extends Error {
  override readonly name = "UnsupportedSearchError";
}
