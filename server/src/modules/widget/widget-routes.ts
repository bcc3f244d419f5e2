import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { Elysia } from "elysia";
import { NotFoundError } from "../../errors.ts";
import { authPlugin, type AuthDeps } from "../../http/auth-plugin.ts";
import { widgetConfig, type WidgetSettings } from "./widget-config.ts";

/*
 * The head script and its configuration. /widget/v1/widget.js is what stores embed: revalidated often (ETag),
 * so a fix reaches every store quickly. Beside it an immutable copy named by its content hash, for stores that
 * pin a version. The script is read once at start (it changes only with a deployment).
 */

interface BuiltScript {
  body: string;
  etag: string;
  hash: string;
}

function loadScript(file: string): BuiltScript | null {
  if (!existsSync(file)) return null;
  const body = readFileSync(file, "utf8");
  const hash = createHash("sha256").update(body).digest("hex").slice(0, 12);
  return { body, etag: `"${hash}"`, hash };
}

const JS = "text/javascript; charset=utf-8";

export function widgetRoutes(deps: AuthDeps & { widgetScriptFile: string }) {
  const script = loadScript(deps.widgetScriptFile);
  const missing = () => new NotFoundError("The widget is not built on this server; run `npm run build -w widget`");
  return new Elysia()
    .use(authPlugin(deps))
    .get(
      "/widget/v1/widget.js",
      ({ request }) => {
        if (!script) throw missing();
        const headers = {
          "content-type": JS,
          etag: script.etag,
          "cache-control": "public, max-age=300, must-revalidate",
          "access-control-allow-origin": "*",
          link: `</widget/v1/widget.${script.hash}.js>; rel="alternate"`,
        };
        if (request.headers.get("if-none-match") === script.etag) return new Response(null, { status: 304, headers });
        return new Response(script.body, { headers });
      },
      { detail: { summary: "The head script (latest v1)", tags: ["Widget"] } },
    )
    .get(
      "/widget/v1/:file",
      ({ params }) => {
        if (!script || params.file !== `widget.${script.hash}.js`) throw missing();
        return new Response(script.body, {
          headers: { "content-type": JS, etag: script.etag, "cache-control": "public, max-age=31536000, immutable", "access-control-allow-origin": "*" },
        });
      },
      { detail: { summary: "An immutable copy of the head script, named by its content hash", tags: ["Widget"] } },
    )
    .get("/:version/widget-config", ({ caller }) => widgetConfig(caller.store.settings.widget as WidgetSettings | undefined), {
      auth: "search",
      detail: { summary: "The store's widget configuration (set with PATCH /settings { widget })", tags: ["Widget"] },
    });
}
