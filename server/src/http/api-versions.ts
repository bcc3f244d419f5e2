import { NotFoundError } from "../errors.ts";

/** Every version in the spec's table is served; they differ only in additions, all of which are accepted. */
export const API_VERSIONS = ["0.9", "1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "1.6", "1.7", "1.8", "1.9"] as const;
export const LATEST_API_VERSION = "1.9";

/** A path whose first segment looks like a version must name a served one; anything else is a 404. */
export function assertKnownVersion(pathname: string): void {
  const first = pathname.split("/")[1] ?? "";
  if (/^\d+\.\d+$/.test(first) && !(API_VERSIONS as readonly string[]).includes(first)) {
    throw new NotFoundError(`API version ${first} does not exist; served versions are ${API_VERSIONS.join(", ")}`);
  }
}
