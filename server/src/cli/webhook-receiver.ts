import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { startWebhookReceiver } from "../modules/webhooks/reference-receiver.ts";

/*
 * npm run webhook-receiver -- --cert cert.pem --key key.pem [--port 8443] [--host 0.0.0.0] [--out calls.jsonl]
 *                             [--max-age-seconds 300]
 * The reference receiver (modules/webhooks/reference-receiver.ts) on HTTPS; the subscription's secret comes from
 * the environment (WEBHOOK_SECRET), never from the command line (other users can read a process's arguments).
 */

const USAGE = `Usage: WEBHOOK_SECRET=<secret> npm run webhook-receiver -- --cert <cert.pem> --key <key.pem>
         [--port 8443] [--host 0.0.0.0] [--out webhook-calls.jsonl] [--max-age-seconds 300]`;

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
}

function fail(message: string): never {
  console.error(message);
  console.error(USAGE);
  process.exit(2);
}

const args = process.argv.slice(2);
const secret = process.env.WEBHOOK_SECRET?.trim();
if (!secret) fail("WEBHOOK_SECRET is not set: the secret shown when the subscription was created (or rotated)");
const certFile = option(args, "cert");
const keyFile = option(args, "key");
if (!certFile || !keyFile) fail("--cert and --key (PEM files) are required: the receiver speaks HTTPS only");
const port = Number(option(args, "port") ?? 8443);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail("--port must be 0 to 65535");
const maxAgeSeconds = Number(option(args, "max-age-seconds") ?? 300);
if (!(maxAgeSeconds > 0)) fail("--max-age-seconds must be above 0");
const outFile = resolve(option(args, "out") ?? "webhook-calls.jsonl");

let cert: Buffer;
let key: Buffer;
try {
  cert = readFileSync(certFile);
  key = readFileSync(keyFile);
} catch (error) {
  fail(`cannot read the certificate or key: ${(error as Error).message}`);
}

const receiver = await startWebhookReceiver({
  secret,
  outFile,
  maxAgeMs: maxAgeSeconds * 1000,
  cert,
  key,
  port,
  host: option(args, "host") ?? "0.0.0.0",
});
console.log(JSON.stringify({ msg: "webhook receiver listening", url: receiver.url, port: receiver.port, outFile }));
const shutdown = () => receiver.close().then(() => process.exit(0));
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
