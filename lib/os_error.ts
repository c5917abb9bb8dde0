/**
 * Operating-system and connection errors in words: the one mapping from
 * what `Deno` (or the `openai` client) threw to the project's message,
 * "Cannot <action>: <path, port or URL> <what is wrong>; <what to do>",
 * and its exit code: 2 when the path, port or flag is the user's to change
 * (EISDIR, ENOTDIR, ENOENT, EEXIST, ENAMETOOLONG, ELOOP, EACCES/EPERM,
 * EADDRINUSE and EADDRNOTAVAIL on an address the user named), 1 when the
 * machine or an endpoint failed (ENOSPC, EDQUOT, EROFS, EMFILE/ENFILE,
 * connection refused, reset, timed out, unreachable, unknown host).
 *
 * An error is classified by its class first (`Deno.errors.IsADirectory`,
 * ...), then by its `code` ("EISDIR"), then by the OS error number or text
 * in its message ("File name too long (os error 36)": Deno has no class
 * for it), following `cause` (the `openai` client's "Connection error."
 * holds the fetch error, which holds the real one). The number and Deno's
 * syscall suffix (": readfile 'x'") never reach the message.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { osErrorMessage } from "./os_error.ts";
 * const error = await Deno.readTextFile("/").catch((e) => e);
 * const mapped = osErrorMessage(error, { action: "read the dataset", path: "/", flag: "dataset" });
 * assert.equal(mapped?.exitCode, 2);
 * assert.match(mapped!.message, /^Cannot read the dataset: \/ is a folder, not a file; /);
 * assert.doesNotMatch(mapped!.message, /os error/);
 * ```
 *
 * @module
 */
import { dirname, resolve } from "node:path";

/** What the failing path, port or URL was for, so the message can say what it should be and what to do. */
export interface OsErrorContext {
  /** What could not be done, after "Cannot": "read the dataset", "listen". */
  action: string;
  /** The file or folder, as the user gave it. */
  path?: string;
  /** The port that was asked for. */
  port?: number;
  /** The address to bind (with `port`). */
  host?: string;
  /** The endpoint, e.g. a model's `baseURL`. */
  url?: string;
  /** What the path should be: "a JSONL file", "a folder", "the run's rows". */
  expected?: string;
  /** Where the user set it: "--port", "--out", "outputDir", "dataset". */
  flag?: string;
  /** What to do, replacing the default advice of the error's kind. */
  todo?: string;
}

/** A mapped error: the message and the exit code. */
export interface OsErrorReport {
  /** "Cannot <action>: <why>; <what to do>", one paragraph. */
  message: string;
  /** 2: the user's input to change; 1: the machine or an endpoint. */
  exitCode: 1 | 2;
}

/** The kinds of error the mapping knows, by their POSIX names. */
export type OsErrorCode =
  | "EISDIR"
  | "ENOTDIR"
  | "ENOENT"
  | "EEXIST"
  | "ENAMETOOLONG"
  | "ELOOP"
  | "EACCES"
  | "EPERM"
  | "ENOSPC"
  | "EDQUOT"
  | "EROFS"
  | "EMFILE"
  | "ENFILE"
  | "EADDRINUSE"
  | "EADDRNOTAVAIL"
  | "ECONNREFUSED"
  | "ECONNRESET"
  | "ETIMEDOUT"
  | "EHOSTUNREACH"
  | "ENETUNREACH"
  | "EDNS"
  | "ECONNECTION";

/**
 * A bad path, port or address in words (exit 2 through `runCli`, which
 * prints errors named `…InputError` without a stack).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { OsInputError } from "./os_error.ts";
 * const error = new OsInputError("Cannot read x: it does not exist; give another path");
 * assert.equal(error.name, "OsInputError");
 * assert.equal(error.exitCode, 2);
 * ```
 */
export class OsInputError extends Error {
  /** Always `"OsInputError"`. */
  override name = "OsInputError";
  /** Always 2. */
  readonly exitCode = 2;
}

/**
 * A failure of the machine or an endpoint in words (a full disk, a server
 * gone): exit 1, printed by `runCli` without a stack.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { OsFailureError } from "./os_error.ts";
 * assert.equal(new OsFailureError("Cannot write x: the disk is full; free space").exitCode, 1);
 * ```
 */
export class OsFailureError extends Error {
  /** Always `"OsFailureError"`. */
  override name = "OsFailureError";
  /** Always 1. */
  readonly exitCode = 1;
}

/** Deno's error classes (those this Deno has) and the code each means. */
const CLASSES: [string, OsErrorCode][] = [
  ["IsADirectory", "EISDIR"],
  ["NotADirectory", "ENOTDIR"],
  ["NotFound", "ENOENT"],
  ["AlreadyExists", "EEXIST"],
  ["FilesystemLoop", "ELOOP"],
  ["PermissionDenied", "EACCES"],
  ["AddrInUse", "EADDRINUSE"],
  ["AddrNotAvailable", "EADDRNOTAVAIL"],
  ["ConnectionRefused", "ECONNREFUSED"],
  ["ConnectionReset", "ECONNRESET"],
  ["ConnectionAborted", "ECONNRESET"],
  ["TimedOut", "ETIMEDOUT"],
  ["NetworkUnreachable", "ENETUNREACH"],
];

/** Linux's numbers, for errors that arrive only as "(os error N)". */
const NUMBERS: Record<number, OsErrorCode> = {
  1: "EPERM",
  2: "ENOENT",
  13: "EACCES",
  17: "EEXIST",
  20: "ENOTDIR",
  21: "EISDIR",
  23: "ENFILE",
  24: "EMFILE",
  28: "ENOSPC",
  30: "EROFS",
  36: "ENAMETOOLONG",
  40: "ELOOP",
  98: "EADDRINUSE",
  99: "EADDRNOTAVAIL",
  101: "ENETUNREACH",
  104: "ECONNRESET",
  110: "ETIMEDOUT",
  111: "ECONNREFUSED",
  113: "EHOSTUNREACH",
  122: "EDQUOT",
};

/** The OS's own words (any OS, any number), for the same. */
const TEXTS: [RegExp, OsErrorCode][] = [
  [/file name too long/i, "ENAMETOOLONG"],
  [/no space left on device/i, "ENOSPC"],
  [/disk quota exceeded/i, "EDQUOT"],
  [/read-only file system/i, "EROFS"],
  [/too many open files in system/i, "ENFILE"],
  [/too many open files/i, "EMFILE"],
  [/too many levels of symbolic links/i, "ELOOP"],
  [/operation not permitted/i, "EPERM"],
  [/permission denied/i, "EACCES"],
  [/connection refused/i, "ECONNREFUSED"],
  [/connection reset|connection closed before|broken pipe/i, "ECONNRESET"],
  [/timed out/i, "ETIMEDOUT"],
  [/no route to host|host is unreachable/i, "EHOSTUNREACH"],
  [/network is unreachable/i, "ENETUNREACH"],
  [
    /dns error|failed to lookup address|name or service not known|getaddrinfo/i,
    "EDNS",
  ],
];

const CODES = new Set<string>([
  ...Object.values(NUMBERS),
  "EDNS",
  "ECONNECTION",
]);

/**
 * The kind of one error (not its causes), or null. The OS's words count
 * only beside an "(os error N)" or in a cause (a fetch error's own
 * message), never in an error's free text.
 */
function codeOfOne(error: unknown, cause: boolean): OsErrorCode | null {
  if (!(error instanceof Error)) return null;
  const errors = Deno.errors as unknown as Record<string, unknown>;
  for (const [name, code] of CLASSES) {
    const cls = errors[name];
    if (typeof cls === "function" && error instanceof cls) return code;
  }
  const own = (error as { code?: unknown }).code;
  if (typeof own === "string" && CODES.has(own)) return own as OsErrorCode;
  if (own === "ENOTFOUND" || own === "EAI_AGAIN") return "EDNS";
  const number = /\(os error (\d+)\)/.exec(error.message);
  if (number !== null) {
    const mapped = NUMBERS[Number(number[1])];
    if (mapped !== undefined) return mapped;
  }
  if (number === null && !cause) return null;
  for (const [pattern, code] of TEXTS) {
    if (pattern.test(error.message)) return code;
  }
  return null;
}

/** The `openai` client's connection errors (matched by name: this module loads no client). */
function isClientConnectionError(error: unknown): boolean {
  return error instanceof Error &&
    /^APIConnection(Timeout)?Error$/.test(error.constructor?.name ?? "");
}

/**
 * The kind of an OS or connection error, following `cause`: by class,
 * then `code`, then the OS error number or text in the message.
 *
 * @param error Anything thrown.
 * @returns The kind ("EISDIR", "ECONNREFUSED", "EDNS" for an unknown host,
 *   "ECONNECTION" for a client's connection error with no known cause), or
 *   null when it is not one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { osErrorCode } from "./os_error.ts";
 * assert.equal(osErrorCode(new Error("File name too long (os error 36): mkdir 'x'")), "ENAMETOOLONG");
 * assert.equal(osErrorCode(new Deno.errors.AddrInUse("Address already in use (os error 98)")), "EADDRINUSE");
 * assert.equal(osErrorCode(new TypeError("fetch failed", { cause: new Error("tcp connect error: Connection refused (os error 111)") })), "ECONNREFUSED");
 * assert.equal(osErrorCode(new SyntaxError("Unexpected token")), null);
 * ```
 */
export function osErrorCode(error: unknown): OsErrorCode | null {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    if (current instanceof OsInputError || current instanceof OsFailureError) {
      return null;
    }
    const code = codeOfOne(current, depth > 0);
    if (code !== null) return code;
    if (/^Request timed out\.?$/.test(current.message)) return "ETIMEDOUT";
    current = current.cause;
  }
  return isClientConnectionError(error) ? "ECONNECTION" : null;
}

/** The first URL in the messages of an error and its causes. */
function urlIn(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    const found = /\bhttps?:\/\/[^\s)'"]+/.exec(current.message);
    if (found !== null) return found[0];
    current = current.cause;
  }
  return undefined;
}

/** Deno's syscall names and what a user would call them. */
const SYSCALLS: Record<string, string> = {
  open: "open",
  readfile: "read",
  writefile: "write",
  mkdir: "create the folder",
  stat: "look at",
  lstat: "look at",
  readdir: "list the folder",
  rename: "rename",
  remove: "remove",
  copy: "copy",
  realpath: "resolve",
  symlink: "create the link",
  chmod: "change the mode of",
  truncate: "truncate",
};

/**
 * What Deno's message says was being done, and to which path: "File
 * exists (os error 17): mkdir 'out/.cache'" → `{ action: "create the
 * folder out/.cache", path: "out/.cache" }`. For `runCli`, where an error
 * arrives with no context.
 *
 * @param error Anything thrown.
 * @returns The action and the path (the first one named), or just a
 *   generic action ("do that") when the message names none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { osErrorContextOf } from "./os_error.ts";
 * assert.deepEqual(
 *   osErrorContextOf(new Error("File exists (os error 17): mkdir 'out/.cache'")),
 *   { action: "create the folder out/.cache", path: "out/.cache" },
 * );
 * assert.deepEqual(osErrorContextOf(new Error("Is a directory (os error 21)")), { action: "do that" });
 * ```
 */
export function osErrorContextOf(error: unknown): OsErrorContext {
  const message = error instanceof Error ? error.message : String(error);
  const call = /\(os error \d+\):\s*([a-z_]+)\s+'([^']*)'/.exec(message);
  if (call === null) {
    const url = urlIn(error);
    return url === undefined
      ? { action: "do that" }
      : { action: "reach the endpoint", url };
  }
  const path = call[2]!;
  const verb = SYSCALLS[call[1]!] ?? "use";
  return { action: `${verb} ${path}`, path };
}

/** A path as shown: long ones cut in the middle, with their length. */
function shown(path: string): string {
  if (path.length <= 120) return path;
  return `${path.slice(0, 60)}…${path.slice(-40)} (${path.length} characters)`;
}

/** The longest name (between slashes) of a path, in bytes. */
function longestName(path: string): number {
  const encoder = new TextEncoder();
  return Math.max(0, ...path.split("/").map((n) => encoder.encode(n).length));
}

/** The nearest part of `path` that exists as a file (the reason for ENOTDIR). */
function fileOnTheWay(path: string): string | null {
  let current = dirname(path);
  for (let i = 0; i < 64 && current !== dirname(current); i++) {
    try {
      if (Deno.statSync(current).isFile) return current;
    } catch {
      // missing, or not ours to look at: go up
    }
    current = dirname(current);
  }
  return null;
}

/** "--out ", "outputDir ", or "" for the advice. */
function named(context: OsErrorContext): string {
  return context.flag === undefined ? "" : `${context.flag} `;
}

/** The why and the default advice of a file-system error. */
function pathWords(
  code: OsErrorCode,
  context: OsErrorContext,
): [why: string, todo: string] | null {
  const path = context.path === undefined ? "the path" : shown(context.path);
  const flag = named(context);
  const give = (what: string) =>
    context.flag === undefined
      ? `give the path of ${what}`
      : `give ${context.flag} the path of ${what}`;
  switch (code) {
    case "EISDIR":
      return [
        `${path} is a folder, not ${context.expected ?? "a file"}`,
        give(context.expected ?? "a file"),
      ];
    case "ENOTDIR": {
      const file = context.path === undefined
        ? null
        : fileOnTheWay(context.path);
      return [
        file === null
          ? `a part of ${path} is a file, not a folder`
          : `${
            shown(file)
          } is a file, not a folder, so ${path} cannot be inside it`,
        `${
          flag === "" ? "give a path" : `give ${flag}a path`
        } whose folders are folders`,
      ];
    }
    case "ENOENT": {
      const absolute = context.path !== undefined &&
          !context.path.startsWith("/")
        ? ` (looked for ${shown(resolve(context.path))})`
        : "";
      return [
        `${path} does not exist${absolute}`,
        context.expected === undefined
          ? `check ${flag === "" ? "the path" : flag.trim()}`
          : give(`an existing ${context.expected}`),
      ];
    }
    case "EEXIST":
      return [
        `${path} already exists${
          context.expected === undefined
            ? ""
            : `, and it is not ${context.expected}`
        }`,
        `${flag === "" ? "give another path" : `give ${flag}another path`}`,
      ];
    case "ENAMETOOLONG":
      return [
        `the path ${path} has a name of ${
          context.path === undefined ? "over 255" : longestName(context.path)
        } bytes, too long for the file system (it allows 255 bytes per name)`,
        `give ${flag === "" ? "a shorter name" : `${flag}a shorter name`}`,
      ];
    case "ELOOP":
      return [
        `${path} is a loop of symbolic links (following them leads back to where they started)`,
        give(`the real ${context.expected ?? "file"}`),
      ];
    case "EACCES":
    case "EPERM":
      return [
        `permission denied on ${path}`,
        `make it ${
          /^(write|create|save|rename|remove)/.test(context.action)
            ? "writable"
            : "readable"
        } by this user, or ${
          flag === "" ? "give another path" : `give ${flag}another path`
        }`,
      ];
    case "ENOSPC":
    case "EDQUOT":
      return [
        `the disk holding ${path} is full${
          code === "EDQUOT" ? " (your quota is used up)" : ""
        }`,
        `free space on it${
          flag === ""
            ? ""
            : `, or point ${flag.trim()} at a folder on another disk`
        }, then run the command again`,
      ];
    case "EROFS":
      return [
        `${path} is on a read-only file system`,
        `${
          flag === "" ? "give a path" : `give ${flag}a path`
        } on a writable disk`,
      ];
    case "EMFILE":
    case "ENFILE":
      return [
        `too many files are open at once (the ${
          code === "EMFILE" ? "process's" : "system's"
        } limit of open files was reached while opening ${path})`,
        "raise the limit (ulimit -n) or lower the concurrency, then run the command again",
      ];
    default:
      return null;
  }
}

/** The why and the default advice of a port or connection error. */
function netWords(
  code: OsErrorCode,
  context: OsErrorContext,
): [why: string, todo: string] | null {
  const flag = context.flag ?? "--port";
  const where = context.host === undefined ? "" : ` on ${context.host}`;
  const port = context.port === undefined ? "the port" : `port ${context.port}`;
  const url = context.url ?? "the endpoint";
  const start =
    "start the server there (the sim: deno task serve-sim), or check the baseURL (it usually ends in /v1)";
  switch (code) {
    case "EADDRINUSE":
      return [
        `${port}${where} is already in use by another program`,
        `give ${flag} 0 (any free port) or another port`,
      ];
    case "EADDRNOTAVAIL":
      return [
        `${context.host ?? "the address"} is not an address of this machine`,
        `give ${
          context.flag === "--port" ? "--host" : (context.flag ?? "--host")
        } an address of this machine (127.0.0.1 for this machine only)`,
      ];
    case "ECONNREFUSED":
      return [`nothing answers at ${url} (connection refused)`, start];
    case "ECONNRESET":
      return [
        `${url} closed the connection before it answered`,
        "check that the server there is up and is an OpenAI-compatible endpoint, then run the command again",
      ];
    case "ETIMEDOUT":
      return [
        `${url} did not answer in time`,
        "check that the server there is up and not overloaded, then run the command again",
      ];
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return [
        `the host of ${url} cannot be reached from this machine`,
        "check the network and the baseURL",
      ];
    case "EDNS":
      return [
        `the host name of ${url} is not known (the DNS lookup failed)`,
        "check the host in the baseURL",
      ];
    case "ECONNECTION":
      return [`cannot connect to ${url}`, start];
    default:
      return null;
  }
}

/** The kinds that are the machine's or an endpoint's (exit 1). */
const MACHINE = new Set<OsErrorCode>([
  "ENOSPC",
  "EDQUOT",
  "EROFS",
  "EMFILE",
  "ENFILE",
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EDNS",
  "ECONNECTION",
]);

/**
 * Turns an OS or connection error into the project's one-paragraph
 * message, naming the path, port or URL, what it should be and what to
 * do, with its exit code.
 *
 * @param error Anything thrown.
 * @param context What was being done and to what; without it, the action
 *   and the path come from Deno's message (see {@linkcode osErrorContextOf}).
 * @returns The message and exit code, or null when the error is not an OS
 *   or connection error, or (without a context) its message is already in
 *   words ("Cannot ..."); an error already mapped by {@linkcode osError}
 *   returns its own message and code.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { osErrorMessage } from "./os_error.ts";
 * const taken = new Deno.errors.AddrInUse("Address already in use (os error 98)");
 * const mapped = osErrorMessage(taken, { action: "listen", port: 8000, flag: "--port" });
 * assert.deepEqual(mapped, {
 *   message: "Cannot listen: port 8000 is already in use by another program; give --port 0 (any free port) or another port",
 *   exitCode: 2,
 * });
 * assert.equal(osErrorMessage(new Error("File name too long (os error 36): writefile 'x'"))?.exitCode, 2);
 * assert.equal(osErrorMessage(new Error("No space left on device (os error 28)"), { action: "write x", path: "x" })?.exitCode, 1);
 * assert.equal(osErrorMessage(new RangeError("bad")), null);
 * ```
 */
export function osErrorMessage(
  error: unknown,
  context?: OsErrorContext,
): OsErrorReport | null {
  if (error instanceof OsInputError || error instanceof OsFailureError) {
    return { message: error.message, exitCode: error.exitCode };
  }
  // Without a context, an error whose own message is already in words (a
  // Deno.errors.NotFound made with "Cannot load x: ...") is left as it is.
  if (
    context === undefined && error instanceof Error &&
    /^Cannot /.test(error.message) && !/\(os error \d+\)/.test(error.message)
  ) return null;
  const code = osErrorCode(error);
  if (code === null) return null;
  const derived = osErrorContextOf(error);
  const ctx: OsErrorContext = { ...(context ?? derived) };
  if (ctx.path === undefined && derived.path !== undefined && !ctx.url) {
    ctx.path = derived.path;
  }
  if (ctx.url === undefined && MACHINE.has(code) && ctx.path === undefined) {
    const url = urlIn(error);
    if (url !== undefined) ctx.url = url;
  }
  const words = pathWords(code, ctx) ?? netWords(code, ctx);
  if (words === null) return null;
  const [why, todo] = words;
  const userNamed = ctx.flag !== undefined || ctx.port !== undefined;
  const exitCode: 1 | 2 = MACHINE.has(code) ||
      ((code === "EADDRINUSE" || code === "EADDRNOTAVAIL") && !userNamed)
    ? 1
    : 2;
  return {
    message: `Cannot ${ctx.action}: ${why}; ${ctx.todo ?? todo}`,
    exitCode,
  };
}

/**
 * The error to throw in place of an OS or connection error: an
 * {@linkcode OsInputError} (exit 2) or {@linkcode OsFailureError} (exit 1)
 * with the mapped message and the original as its `cause`; any other
 * error is returned as it is.
 *
 * @param error Anything thrown.
 * @param context What was being done and to what.
 * @returns The error to throw.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { osError, OsInputError } from "./os_error.ts";
 * const error = await Deno.readTextFile("/no/such.jsonl").catch((e) => e);
 * const mapped = osError(error, { action: "read the dataset", path: "/no/such.jsonl", flag: "dataset", expected: "JSONL file" });
 * assert.ok(mapped instanceof OsInputError);
 * assert.equal(mapped.message, "Cannot read the dataset: /no/such.jsonl does not exist; give dataset the path of an existing JSONL file");
 * const other = new SyntaxError("x");
 * assert.equal(osError(other, { action: "read" }), other);
 * ```
 */
export function osError(error: unknown, context: OsErrorContext): Error {
  const mapped = osErrorMessage(error, context);
  if (mapped === null) {
    return error instanceof Error ? error : new Error(String(error));
  }
  return mapped.exitCode === 2
    ? new OsInputError(mapped.message, { cause: error })
    : new OsFailureError(mapped.message, { cause: error });
}

/**
 * A file-system error in words, without the OS error number and the
 * syscall Deno appends ("No such file or directory (os error 2): readfile
 * 'x'"): the short reason to put after a path in a message.
 *
 * @param error What a `Deno` file call threw.
 * @returns A short reason ("it does not exist", "permission denied", ...).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fsReason } from "./os_error.ts";
 * const error = await Deno.readTextFile("/no/such/file").catch((e) => e);
 * assert.equal(fsReason(error), "it does not exist");
 * assert.equal(fsReason(new Error("File name too long (os error 36): mkdir 'x'")), "a name in the path is too long (a file system allows 255 bytes per name)");
 * ```
 */
export function fsReason(error: unknown): string {
  switch (osErrorCode(error)) {
    case "ENOENT":
      return "it does not exist";
    case "EEXIST":
      return "a file of that name exists";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "ENOTDIR": {
      const path = osErrorContextOf(error).path;
      const file = path === undefined ? null : fileOnTheWay(path);
      return file === null
        ? "a part of the path is a file, not a folder"
        : `${shown(file)} is a file, not a folder`;
    }
    case "EISDIR":
      return "it is a folder, not a file";
    case "ENAMETOOLONG":
      return "a name in the path is too long (a file system allows 255 bytes per name)";
    case "ELOOP":
      return "it is a loop of symbolic links";
    case "ENOSPC":
    case "EDQUOT":
      return "the disk is full";
    case "EROFS":
      return "the file system is read-only";
    case "EMFILE":
    case "ENFILE":
      return "too many files are open at once";
  }
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s*\(os error \d+\).*$/s, "");
}
