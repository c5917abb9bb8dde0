/**
 * The sandbox worker's reader of its stdin: protocol lines and the raw bytes
 * of a Pyodide snapshot, from one growing buffer.
 *
 * The reader and its buffer live in the closure `openStdin` returns, never
 * in this module's scope: code that imports this module again (the
 * candidate's could) gets nothing, since stdin is already locked to the
 * worker's reader.
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

/** Locks stdin to a new reader (once per process: stdin cannot be locked twice). */
export function openStdin(): WorkerStdin {
  const reader = Deno.stdin.readable.getReader();
  const read = reader.read.bind(reader);

  // stdin buffer: bytes [start, end) of buf are unread; grows by doubling.
  let buf = new Uint8Array(1 << 16);
  let start = 0;
  let end = 0;
  let ended = false;

  async function fill(): Promise<boolean> {
    if (ended) return false;
    const { value, done } = await read();
    if (done || !value) {
      ended = true;
      return false;
    }
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
