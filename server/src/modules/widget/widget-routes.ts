import { dirname, join } from "node:path";
import { existsSync, readFileSync } from "node:fs";
import { Elysia, t } from "elysia";
import { NotFoundError } from "../../errors.ts";
import { authPlugin, type AuthDeps } from "../stores/auth-plugin.ts";
import { negotiateEncoding, precompressed, STATIC_ENCODINGS, withVary, type Encoding, type Precompressed } from "../../http/compression.ts";
import { ifNoneMatch, shortHash } from "../../http/etag.ts";
import type { PopularContent } from "../suggestions/popular-content.ts";
import { widgetConfig, type WidgetSettings } from "../settings/widget-settings.ts";
import { inVariant, tagged, type ShopperVariants } from "../settings/shopper-variant.ts";
import { shopperParamDocs, shopperParams, type Raw } from "../../http/query-params.ts";

/*
 * The head script, the InstantSearch client and the head script's configuration. /widget/v1/widget.js is what
 * stores embed, /widget/v1/instantsearch-client.js what an InstantSearch page without a build step imports: both
 * revalidated often (ETag), so a fix reaches every store quickly. Beside each an immutable copy named by its
 * content hash, for stores that pin a version. A script is read once at start (it changes only with a
 * deployment) and compressed once.
 */

interface BuiltScript {
  body: Uint8Array<ArrayBuffer>;
  hash: string;
  encoded: Promise<Precompressed>;
}

function loadScript(file: string): BuiltScript | null {
  if (!existsSync(file)) return null;
  const body = new Uint8Array(readFileSync(file));
  const hash = shortHash(body);
  return { body, hash, encoded: precompressed(hash, body) };
}

const JS = "text/javascript; charset=utf-8";
/** Each encoding is its own representation with its own strong tag, so a cache never mixes their bytes. */
const TAG_SUFFIX: Record<Encoding, string> = { br: "-br", zstd: "-zst", gzip: "-gz" };

/** The script in the best encoding the client accepts, or 304 when it holds that representation already. */
async function scriptResponse(script: BuiltScript, request: Request, headers: Record<string, string>): Promise<Response> {
  const encoding = negotiateEncoding(request.headers.get("accept-encoding"), STATIC_ENCODINGS);
  const etag = `"${script.hash}${encoding ? TAG_SUFFIX[encoding] : ""}"`;
  // Any origin: a store's page loads the head script with <script>, and the client with an import, which is a
  // CORS request.
  const common = { ...headers, "content-type": JS, etag, vary: "Accept-Encoding", "access-control-allow-origin": "*" };
  if (ifNoneMatch(request, etag)) return new Response(null, { status: 304, headers: common });
  if (!encoding) return new Response(script.body, { headers: common });
  return new Response((await script.encoded)[encoding], { headers: { ...common, "content-encoding": encoding } });
}

/** A served script: its name under /widget/v1/ (`<name>.js`, and `<name>.<hash>.js`) and the build that makes it. */
interface ServedScript {
  name: string;
  script: BuiltScript | null;
  build: string;
}

const latest = (served: ServedScript, request: Request) => {
  if (!served.script) throw new NotFoundError(`${served.name}.js is not built on this server; run \`${served.build}\``);
  return scriptResponse(served.script, request, {
    "cache-control": "public, max-age=300, must-revalidate",
    link: `</widget/v1/${served.name}.${served.script.hash}.js>; rel="alternate"`,
  });
};

/**
 * The widget configuration changes when the store changes its settings, so browsers keep it a minute and then
 * revalidate. Private: the URL does not name the store (its id and key are headers), so a shared cache must not
 * answer one store's request with another's configuration. An experiment's variant can change it per shopper; the
 * shopper's ids are in the URL, so a browser's cache keeps each shopper's own.
 */
const CONFIG_CACHE_CONTROL = "private, max-age=60";

export function widgetRoutes(
  deps: AuthDeps & {
    widgetScriptFile: string;
    instantsearchClientFile: string;
    popular: (storeId: string) => Promise<PopularContent>;
    /** The shopper's experiment variant: its widget settings over the store's (absent: none). */
    variants?: ShopperVariants;
  },
) {
  const widget: ServedScript = { name: "widget", script: loadScript(deps.widgetScriptFile), build: "npm run build -w widget" };
  const client: ServedScript = {
    name: "instantsearch-client",
    script: loadScript(deps.instantsearchClientFile),
    build: "npm run build -w instantsearch-client",
  };
  // Built beside the search client (one workspace, one build command), so served from the same folder.
  const insights: ServedScript = {
    name: "instantsearch-insights",
    script: loadScript(join(dirname(deps.instantsearchClientFile), "instantsearch-insights.js")),
    build: "npm run build -w instantsearch-client",
  };
  return new Elysia()
    .use(authPlugin(deps))
    .get("/widget/v1/widget.js", ({ request }) => latest(widget, request), {
      detail: { summary: "The head script (latest v1)", tags: ["Widget"] },
    })
    .get("/widget/v1/instantsearch-client.js", ({ request }) => latest(client, request), {
      detail: { summary: "The InstantSearch client as an ES module (latest v1)", tags: ["Widget"] },
    })
    .get("/widget/v1/instantsearch-insights.js", ({ request }) => latest(insights, request), {
      detail: { summary: "The InstantSearch insights client as an ES module (latest v1)", tags: ["Widget"] },
    })
    .get(
      "/widget/v1/:file",
      ({ params, request }) => {
        const pinned = [widget, client, insights].find((s) => s.script && params.file === `${s.name}.${s.script.hash}.js`);
        if (!pinned?.script) throw new NotFoundError(`No script ${params.file} on this server`);
        return scriptResponse(pinned.script, request, { "cache-control": "public, max-age=31536000, immutable" });
      },
      {
        detail: {
          summary: "An immutable copy of the head script or an InstantSearch module, named by its content hash",
          tags: ["Widget"],
        },
      },
    )
    .get(
      "/:version/widget-config",
      async ({ caller, query, request, set }) => {
        const variant = (await deps.variants?.(caller.store, shopperParams(query as Raw))) ?? null;
        const stored = inVariant(caller.store, variant).settings.widget as WidgetSettings | undefined;
        // What the store learnt from its shoppers fills what the store did not set itself.
        const popular = await deps.popular(caller.store.id);
        const body = JSON.stringify(
          tagged(
            {
              ...widgetConfig(stored),
              popularCategories: popular.popularCategories,
              popularQueries: stored?.popularQueries ?? popular.popularQueries,
            },
            variant,
          ),
        );
        // Weak: a compressed answer is the same configuration in other bytes, and revalidates the same way.
        const etag = `W/"${shortHash(body)}"`;
        // Added to what the CORS hook set (Origin): Elysia lets a returned Response's own Vary replace it.
        set.headers.vary = withVary(set.headers.vary as string | undefined, "X-Service-Store-ID");
        const headers = { etag, "cache-control": CONFIG_CACHE_CONTROL };
        if (ifNoneMatch(request, etag)) return new Response(null, { status: 304, headers });
        return new Response(body, { headers: { ...headers, "content-type": "application/json; charset=utf-8" } });
      },
      {
        auth: "search",
        query: t.Object({ ...shopperParamDocs }, { additionalProperties: true }),
        detail: {
          summary: "The store's widget configuration (set with PATCH /settings { widget }); a running experiment's variant may change it",
          tags: ["Widget"],
        },
      },
    );
}
