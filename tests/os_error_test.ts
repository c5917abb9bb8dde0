/**
 * `lib/os_error.ts`: every kind of OS and connection error the mapping
 * knows, made for real where a user can make it (a folder read as a file,
 * a path through a file, a loop of links, a taken port, a refused
 * connection) and synthetically where the machine must fail (a full disk,
 * a read-only file system, too many open files; and EACCES, which the
 * tests cannot make: they run as root, which reads a mode-000 file).
 * Each message names the path, port or URL, says what to do, carries no
 * "(os error N)" and no syscall, and has the exit code of its kind.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import OpenAI from "openai";
import {
  fsReason,
  osError,
  osErrorCode,
  osErrorContextOf,
  osErrorMessage,
  OsFailureError,
  OsInputError,
} from "../lib/os_error.ts";
import { runCli } from "../lib/args.ts";

/** What a promise rejected with. */
async function thrown(work: () => unknown): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error("it did not throw");
}

/** The checks every message passes. */
function wellFormed(message: string): void {
  assert.match(message, /^Cannot [^:]+: .+; .+/s);
  assert.doesNotMatch(message, /os error|\(\d+\)|readfile|writefile|mkdir '/);
  assert.doesNotMatch(message, /\n/);
}

async function withTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "os-error-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("osErrorMessage() maps real file-system errors a user can provoke, exit 2, naming the path", () =>
  withTemp(async (dir) => {
    const file = join(dir, "notes.txt");
    await Deno.writeTextFile(file, "mine");
    await Deno.symlink(join(dir, "b"), join(dir, "a"));
    await Deno.symlink(join(dir, "a"), join(dir, "b"));
    const long = join(dir, "x".repeat(300));
    const cases: [string, () => unknown, string, RegExp][] = [
      ["EISDIR", () => Deno.readTextFile(dir), dir, /is a folder, not a file/],
      [
        "ENOTDIR",
        () => Deno.readTextFile(join(file, "q.jsonl")),
        join(file, "q.jsonl"),
        /notes\.txt is a file, not a folder, so .*q\.jsonl cannot be inside it/,
      ],
      [
        "ENOENT",
        () => Deno.readTextFile(join(dir, "gone")),
        join(dir, "gone"),
        /does not exist/,
      ],
      ["EEXIST", () => Deno.mkdir(file), file, /already exists/],
      [
        "ENAMETOOLONG",
        () => Deno.writeTextFile(long, "x"),
        long,
        /300 bytes, too long .*255/,
      ],
      [
        "ELOOP",
        () => Deno.readTextFile(join(dir, "a")),
        join(dir, "a"),
        /loop of symbolic links/,
      ],
    ];
    for (const [code, work, path, why] of cases) {
      const error = await thrown(work);
      assert.equal(osErrorCode(error), code, code);
      const mapped = osErrorMessage(error, {
        action: "read the dataset",
        path,
        flag: "dataset",
      });
      assert.ok(mapped !== null, code);
      assert.equal(mapped.exitCode, 2, code);
      assert.match(mapped.message, why, code);
      assert.ok(
        mapped.message.includes(path.length > 120 ? path.slice(0, 60) : path),
        `${code}: ${mapped.message}`,
      );
      wellFormed(mapped.message);
    }
  }));

Deno.test("osErrorMessage() without a context takes the action and the path from Deno's message", () =>
  withTemp(async (dir) => {
    const error = await thrown(() => Deno.mkdir(dir));
    assert.deepEqual(osErrorContextOf(error), {
      action: `create the folder ${dir}`,
      path: dir,
    });
    const mapped = osErrorMessage(error)!;
    assert.equal(mapped.exitCode, 2);
    assert.equal(
      mapped.message,
      `Cannot create the folder ${dir}: ${dir} already exists; give another path`,
    );
  }));

Deno.test("osErrorMessage(): EACCES and EPERM (made synthetically: root reads a mode-000 file) say readable or writable, exit 2", () => {
  const read = new Deno.errors.PermissionDenied(
    "Permission denied (os error 13): open 'data/q.jsonl'",
  );
  const mapped = osErrorMessage(read, {
    action: "read the dataset",
    path: "data/q.jsonl",
    flag: "dataset",
  })!;
  assert.equal(mapped.exitCode, 2);
  assert.equal(
    mapped.message,
    "Cannot read the dataset: permission denied on data/q.jsonl; make it readable by this user, or give dataset another path",
  );
  const write = new Error(
    "Operation not permitted (os error 1): writefile 'out/x'",
  );
  assert.equal(osErrorCode(write), "EPERM");
  assert.match(
    osErrorMessage(write, { action: "write the report", path: "out/x" })!
      .message,
    /make it writable/,
  );
});

Deno.test("osErrorMessage(): a full disk, a read-only file system, too many open files (synthetic) are the machine's, exit 1", () => {
  const cases: [Error, string, RegExp][] = [
    [
      new Error(
        "No space left on device (os error 28): writefile 'out/r.jsonl'",
      ),
      "ENOSPC",
      /the disk holding out\/r\.jsonl is full; free space on it, or point outputDir at a folder on another disk/,
    ],
    [new Error("Disk quota exceeded (os error 122)"), "EDQUOT", /quota/],
    [
      new Error("Read-only file system (os error 30): mkdir 'out'"),
      "EROFS",
      /out is on a read-only file system; give outputDir a path on a writable disk/,
    ],
    [
      new Error("Too many open files (os error 24): open 'out/r.jsonl'"),
      "EMFILE",
      /too many files are open at once .*ulimit -n/,
    ],
    [
      new Error("Too many open files in system (os error 23)"),
      "ENFILE",
      /system's limit/,
    ],
  ];
  for (const [error, code, why] of cases) {
    assert.equal(osErrorCode(error), code);
    const mapped = osErrorMessage(error, {
      action: "write the rows",
      path: osErrorContextOf(error).path ?? "out",
      flag: "outputDir",
    })!;
    assert.equal(mapped.exitCode, 1, code);
    assert.match(mapped.message, why, code);
    wellFormed(mapped.message);
  }
});

Deno.test("osErrorMessage(): a taken port names it and suggests --port 0 (exit 2 when the user named it, 1 otherwise)", () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  try {
    let error: unknown;
    try {
      Deno.listen({ hostname: "127.0.0.1", port });
    } catch (e) {
      error = e;
    }
    assert.equal(osErrorCode(error), "EADDRINUSE");
    const mapped = osErrorMessage(error, {
      action: "start the sim server",
      port,
      host: "127.0.0.1",
      flag: "--port",
    })!;
    assert.equal(mapped.exitCode, 2);
    assert.equal(
      mapped.message,
      `Cannot start the sim server: port ${port} on 127.0.0.1 is already in use by another program; give --port 0 (any free port) or another port`,
    );
    assert.equal(osErrorMessage(error)!.exitCode, 1);
  } finally {
    listener.close();
  }
  const elsewhere = new Deno.errors.AddrNotAvailable(
    "Cannot assign requested address (os error 99)",
  );
  const mapped = osErrorMessage(elsewhere, {
    action: "start the sim server",
    host: "10.1.2.3",
    port: 8000,
    flag: "--port",
  })!;
  assert.equal(mapped.exitCode, 2);
  assert.match(
    mapped.message,
    /10\.1\.2\.3 is not an address of this machine; give --host /,
  );
});

Deno.test("osErrorMessage(): connection failures through the openai client name the URL, exit 1", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  const baseURL = `http://127.0.0.1:${port}/v1`;
  const client = new OpenAI({
    apiKey: "x",
    baseURL,
    maxRetries: 0,
    logLevel: "off",
  });
  const refused = await thrown(() => client.models.list());
  assert.equal((refused as Error).message, "Connection error.");
  assert.equal(osErrorCode(refused), "ECONNREFUSED");
  const mapped = osErrorMessage(refused, {
    action: "collect the batches",
    url: baseURL,
  })!;
  assert.equal(mapped.exitCode, 1);
  assert.match(
    mapped.message,
    new RegExp(
      `nothing answers at ${
        baseURL.replaceAll(".", "\\.")
      } \\(connection refused\\); start the server there`,
    ),
  );
  wellFormed(mapped.message);
  // Without a URL in the context, the one in the cause's message.
  assert.match(
    osErrorMessage(refused)!.message,
    new RegExp(`127\\.0\\.0\\.1:${port}`),
  );
});

Deno.test("osErrorMessage(): reset, timed out, unreachable, unknown host, a bare client error (synthetic), exit 1", () => {
  const url = "http://example.test/v1";
  const cause = (text: string) =>
    new TypeError("fetch failed", { cause: new Error(text) });
  class APIConnectionError extends Error {}
  class APIConnectionTimeoutError extends Error {}
  const cases: [unknown, string, RegExp][] = [
    [
      cause(
        "client error (SendRequest): connection closed before message completed",
      ),
      "ECONNRESET",
      /closed the connection/,
    ],
    [
      new Deno.errors.ConnectionReset(
        "Connection reset by peer (os error 104)",
      ),
      "ECONNRESET",
      /closed the connection/,
    ],
    [
      new APIConnectionTimeoutError("Request timed out."),
      "ETIMEDOUT",
      /did not answer in time/,
    ],
    [
      cause("tcp connect error: No route to host (os error 113)"),
      "EHOSTUNREACH",
      /cannot be reached/,
    ],
    [
      cause(
        "dns error: failed to lookup address information: Name or service not known",
      ),
      "EDNS",
      /host name .* is not known/,
    ],
    [
      new APIConnectionError("Connection error."),
      "ECONNECTION",
      /cannot connect to/,
    ],
  ];
  for (const [error, code, why] of cases) {
    assert.equal(osErrorCode(error), code, code);
    const mapped = osErrorMessage(error, {
      action: "reach the endpoint",
      url,
    })!;
    assert.equal(mapped.exitCode, 1, code);
    assert.match(mapped.message, why, code);
    assert.ok(mapped.message.includes(url), code);
    wellFormed(mapped.message);
  }
});

Deno.test("osErrorMessage() leaves other errors, and worded ones without a context, alone", () => {
  assert.equal(osErrorMessage(new SyntaxError("Unexpected token")), null);
  assert.equal(osErrorMessage("a string"), null);
  // The OS's words in free text are not an OS error.
  assert.equal(
    osErrorCode(new Error("the reply says: permission denied")),
    null,
  );
  const worded = new Deno.errors.NotFound(
    "Cannot load x.jsonl: no such file; check dataset",
  );
  assert.equal(osErrorMessage(worded), null);
  assert.equal(
    osErrorMessage(worded, { action: "load", path: "x.jsonl" })?.exitCode,
    2,
  );
});

Deno.test("osError() throws OsInputError or OsFailureError with the original as the cause; runCli prints them without a stack", async () => {
  const full = new Error(
    "No space left on device (os error 28): writefile 'r.jsonl'",
  );
  const failure = osError(full, { action: "write the rows", path: "r.jsonl" });
  assert.ok(failure instanceof OsFailureError);
  assert.equal(failure.cause, full);
  const missing = await thrown(() => Deno.readTextFile("/no/such"));
  const input = osError(missing, { action: "read", path: "/no/such" });
  assert.ok(input instanceof OsInputError);
  const printed: string[] = [];
  const printError = (text: string) => printed.push(text);
  assert.equal(
    await runCli(() => {
      throw failure;
    }, { printError }),
    1,
  );
  assert.equal(
    await runCli(() => {
      throw input;
    }, { printError }),
    2,
  );
  assert.equal(
    await runCli(() => {
      throw full;
    }, { printError }),
    1,
  );
  assert.deepEqual(printed, [
    failure.message,
    input.message,
    "Cannot write r.jsonl: the disk holding r.jsonl is full; free space on it, then run the command again",
  ]);
});

Deno.test("fsReason() words each kind without the number or the syscall", () =>
  withTemp(async (dir) => {
    await Deno.writeTextFile(join(dir, "f"), "x");
    assert.equal(
      fsReason(await thrown(() => Deno.readTextFile(join(dir, "gone")))),
      "it does not exist",
    );
    assert.equal(
      fsReason(await thrown(() => Deno.readTextFile(dir))),
      "it is a folder, not a file",
    );
    assert.equal(
      fsReason(await thrown(() => Deno.readTextFile(join(dir, "f", "g")))),
      `${join(dir, "f")} is a file, not a folder`,
    );
    assert.equal(
      fsReason(new Error("Read-only file system (os error 30)")),
      "the file system is read-only",
    );
    assert.equal(
      fsReason(new Error("Something else (os error 999): open 'x'")),
      "Something else",
    );
  }));
