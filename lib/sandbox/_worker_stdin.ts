/**
 * The sandbox worker's reader of its stdin: protocol lines and the raw bytes
 * of a Pyodide snapshot, from one growing buffer.
 *
 * The reader and its buffer live in the closure `openStdin` returns, never
 * in this module's scope. A candidate can read stdin itself: it would take
 * the parent's next commands (never the nonce, read before its code
 * loads) and so stall its own request.
 *
 * @module
 */
import { decodeText } from "./_worker_captured.ts";

/** Reads the worker's stdin. */
export interface WorkerStdin {
  /** The next line without its `\n`, or null once stdin has ended. */
  readLine(): Promise<string | null>;
  /** Exactly `n` bytes; throws when stdin ends first. */
  readBytes(n: number): Promise<Uint8Array>;
}

/** A reader of stdin (one per process: the buffer is its own). */
export function openStdin(): WorkerStdin {
  // Blocking reads: the worker has nothing else to do while it waits, and
  // a round trip through stdin's stream reader cost the worker 280 µs of
  // CPU (a blocking read 13 µs), which every timed sample would carry.
  const stdin = Deno.stdin;
  const readSync = stdin.readSync.bind(stdin);
  const chunk = new Uint8Array(1 << 16);

  // stdin buffer: bytes [start, end) of buf are unread; grows by doubling.
  let buf = new Uint8Array(1 << 16);
  let start = 0;
  let end = 0;
  let ended = false;

  // deno-lint-ignore require-await
  async function fill(): Promise<boolean> {
    if (ended) return false;
    const n = readSync(chunk);
    if (n === null || n === 0) {
      ended = true;
      return false;
    }
    const value = chunk.subarray(0, n);
    if (end + value.length > buf.length) {
      const live = end - start;
      let cap = buf.length;
      while (cap < live + value.length) cap *= 2;
      const next = cap === buf.length ? buf : new Uint8Array(cap);
      next.set(buf.subarray(start, end), 0);
      buf = next;
      start = 0;
      end = live;
    }
    buf.set(value, end);
    end += value.length;
    return true;
  }

  async function readLine(): Promise<string | null> {
    let from = start;
    while (true) {
      const i = buf.subarray(from, end).indexOf(10);
      if (i >= 0) {
        const line = decodeText(buf.subarray(start, from + i));
        start = from + i + 1;
        return line;
      }
      from = end;
      const offset = from - start;
      if (!await fill()) return null;
      from = start + offset;
    }
  }

  async function readBytes(n: number): Promise<Uint8Array> {
    while (end - start < n) {
      if (!await fill()) throw new Error("stdin ended inside the snapshot");
    }
    const out = buf.slice(start, start + n);
    start += n;
    return out;
  }

  return { readLine, readBytes };
}
