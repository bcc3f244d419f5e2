import { NotFoundError } from "../errors.ts";

/** Every version in the spec's table is served; they differ only in additions, all of which are accepted. */
export const API_VERSIONS = ["0.9", "1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "1.6", "1.7", "1.8", "1.9"] as const;
export const LATEST_API_VERSION = "1.9";

function refuse(version: string): never {
  throw new NotFoundError(`API version ${version} does not exist; served versions are ${API_VERSIONS.join(", ")}`);
}

const isServed = (version: string) => (API_VERSIONS as readonly string[]).includes(version);

/** A path whose first segment looks like a version must name a served one, even where no route matches it. */
export function assertKnownVersion(pathname: string): void {
  const first = pathname.split("/")[1] ?? "";
  if (/^\d+\.\d+$/.test(first) && !isServed(first)) refuse(first);
}

/** A route's `:version` segment matches any text (`/x/search`, `/1/search`), so the matched value is checked too. */
export function assertServedVersion(version: string | undefined): void {
  if (version !== undefined && !isServed(version)) refuse(version);
}
