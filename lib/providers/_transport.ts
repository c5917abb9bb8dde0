/**
 * The two HTTP transports of the sim server. Private to `lib/providers`.
 *
 * `Deno.serve` is the faster one on a quiet machine (Rust HTTP stack:
 * 1.4–2.5× the requests/s of `node:http` with a fixed reply body; about
 * equal once the sim's own work and a loaded machine dominate), but its
 * handlers cannot close a connection without answering, and a handler left
 * pending for a hang keeps `shutdown()` waiting. `node:http` can do both
 * (`socket.destroy()`), so it serves when hangs or drops are asked for.
 *
 * @module
 */
import http from "node:http";
import type { Socket } from "node:net";
import {
  type CoreOutcome,
  MAX_BODY_BYTES,
  type ServerCore,
} from "./_server_core.ts";

/** A listening transport. */
export interface Transport {
  hostname: string;
  port: number;
  close(): Promise<void>;
}

const JSON_HEADERS = { "content-type": "application/json" };

/** Serves the core with `Deno.serve`; cannot hang or drop connections. */
export function serveWithDeno(
  core: ServerCore,
  hostname: string,
  port: number,
): Promise<Transport> {
  const closing = new AbortController();
  const server = Deno.serve(
    { hostname, port, onListen() {} },
    async (request) => {
      const declared = Number(request.headers.get("content-length") ?? 0);
      const body = declared <= MAX_BODY_BYTES && request.body !== null
        ? await request.text()
        : "";
      const outcome = declared > MAX_BODY_BYTES || body.length > MAX_BODY_BYTES
        ? core.tooLarge()
        : core.handle({
          method: request.method,
          path: pathOf(request.url),
          authorization: request.headers.get("authorization"),
          body,
        });
      if (outcome.kind !== "respond") {
        // startSimServer() never sends hang or drop faults to this transport
        throw new TypeError(
          `Cannot ${outcome.kind} a request on the Deno.serve transport`,
        );
      }
      if (outcome.delayMs > 0) {
        await waitFor(closing.signal, outcome.delayMs);
      }
      return new Response(outcome.body, {
        status: outcome.status,
        headers: outcome.headers
          ? { ...JSON_HEADERS, ...outcome.headers }
          : JSON_HEADERS,
      });
    },
  );
  return Promise.resolve({
    hostname: server.addr.hostname,
    port: server.addr.port,
    close: async () => {
      closing.abort();
      await server.shutdown();
    },
  });
}

/** Serves the core with `node:http`, which can drop connections. */
export async function serveWithNode(
  core: ServerCore,
  hostname: string,
  port: number,
): Promise<Transport> {
  const sockets = new Set<Socket>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const send = (
    res: http.ServerResponse,
    outcome: Extract<CoreOutcome, { kind: "respond" }>,
  ) => {
    res.writeHead(outcome.status, {
      ...JSON_HEADERS,
      "content-length": String(Buffer.byteLength(outcome.body)),
      ...outcome.headers,
    });
    res.end(outcome.body);
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on("end", () => {
      const outcome = size > MAX_BODY_BYTES ? core.tooLarge() : core.handle({
        method: req.method ?? "GET",
        path: pathOf(req.url ?? "/"),
        authorization: req.headers.authorization ?? null,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      if (outcome.kind === "hang") return; // close() destroys the socket
      if (outcome.kind === "drop") return void req.socket.destroy();
      if (outcome.delayMs <= 0) return send(res, outcome);
      const timer = setTimeout(() => {
        timers.delete(timer);
        send(res, outcome);
      }, outcome.delayMs);
      timers.add(timer);
    });
  });
  server.on("connection", (socket: Socket) => {
    // without it, small responses wait for delayed ACKs (about 40 ms each)
    socket.setNoDelay(true);
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, hostname, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === "string") {
    throw new TypeError("Cannot start sim server: no TCP address");
  }
  return {
    hostname: address.address,
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        sockets.clear();
      }),
  };
}

/** The path of a request URL or request target, without query string. */
function pathOf(url: string): string {
  let start = 0;
  const scheme = url.indexOf("://");
  if (scheme >= 0) start = url.indexOf("/", scheme + 3);
  if (start < 0) return "/";
  const query = url.indexOf("?", start);
  return url.slice(start, query < 0 ? undefined : query);
}

/** Resolves after `ms`, or early when the signal aborts. */
function waitFor(signal: AbortSignal, ms: number): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
