/**
 * Running a documentation page's blocks in order, in a fresh folder that
 * holds a copy of the project's `data/` and `deploy/`, against the sim:
 *
 * - `deno task <name>` runs the task's script with its `deno.json`
 *   permissions (a `deno` on the `PATH` that maps tasks to scripts, as
 *   `tests/e2e/_table.ts` does); a sweep, `batch submit`, `batch export`
 *   or `batch import` of a config without `--limit` (or `--resume`) gets
 *   `--limit 2`. `npx -y deno@X task` is the same, X being the Deno that
 *   runs the test. `python -m vllm.entrypoints.openai.run_batch` is played
 *   by the sim (`_fake_vllm.ts`).
 * - Every endpoint URL in a command or config goes to the test's sim
 *   server (any model id it does not know answers as `sim-average`), or to
 *   the page's own `sh server` block when the port is that one's.
 * - `<placeholder>` paths (`outputs/demo-<time>`) are what earlier
 *   commands made; a comment `exit N` expects that exit code.
 * - Key variables are not passed on from the test's environment: a page's
 *   own `export NAME=...` lines set them.
 *
 * `DOCS_SHOW=1` prints every command with its output.
 */
import { cp, mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { taskArgs } from "../e2e/_table.ts";
import {
  parseConfig,
  planSweep,
  type SimServer,
  startSimServer,
} from "../../lib/mod.ts";
import { SIM_SKILLS } from "../../lib/suites/mod.ts";
import { createSimBackend, type SimBackend } from "../../lib/providers/mod.ts";
import type { Block, Page } from "./_markdown.ts";
import { ROOT } from "./_markdown.ts";
import { handlerOf } from "./_handlers.ts";
import {
  commands,
  resolvePlaceholders,
  says,
  swapEndpoints,
} from "./_shell.ts";

/** The `--limit` a documented sweep gets when it names none. */
export const DOCS_LIMIT = 2;

/** The tasks a page may run (each maps to its script). */
const RUNNABLE = [
  "sweep",
  "report",
  "batch",
  "merge",
  "serve-sim",
  "sandbox",
  "verify-key",
  "forensics",
  "demo",
];

/** Model ids and key variable names the pages' configs and commands name. */
export function namesIn(pages: readonly Page[]): {
  models: string[];
  keys: string[];
} {
  const text = pages.flatMap((p) => p.blocks.map((b) => b.text)).join("\n");
  const ids = [...text.matchAll(/"(?:name|model)"\s*:\s*"([^"]+)"/g)]
    .map((m) => m[1]!);
  const vllm = [...text.matchAll(/--model\s+(\S+)/g)].map((m) => m[1]!);
  const keys = [
    ...text.matchAll(/"apiKeyEnv"\s*:\s*"(\w+)"/g),
    ...text.matchAll(/export\s+((?:\w+=\S*\s*)+)/g),
  ].flatMap((m) =>
    m[1]!.includes("=")
      ? [...m[1]!.matchAll(/(\w+)=/g)].map((k) => k[1]!)
      : [m[1]!]
  ).filter((k) => /KEY|TOKEN/.test(k));
  return {
    models: [...new Set([...ids, ...vllm])],
    keys: [...new Set(keys)],
  };
}

/**
 * The sim, over HTTP, answering any model id the pages name: a sim
 * profile as itself, any other as `sim-average`; the Batch API's phases
 * take a few milliseconds.
 */
export async function startDocsSim(
  models: readonly string[],
): Promise<SimServer> {
  const real = createSimBackend(SIM_SKILLS);
  const listed = real.simModelList();
  const profiles = new Set(listed.map((m) => m.id));
  const as = <R extends { model: string }>(r: R): R =>
    profiles.has(r.model) ? r : { ...r, model: "sim-average" };
  const backend: SimBackend = {
    simChat: (request) => real.simChat(as(request)),
    simSkillFor: (request) => real.simSkillFor?.(as(request)) ?? null,
    simModelList: () => [
      ...listed,
      ...models.filter((id) => !profiles.has(id)).map((id) => ({
        ...listed[0]!,
        id,
      })),
    ],
  };
  return await startSimServer({ backend, batch: { stepMs: 20 } });
}

/**
 * Writes the `deno`, `npx` and `python` stand-ins into `bin` (see the
 * module doc).
 */
export async function writeBin(bin: string): Promise<void> {
  await mkdir(bin, { recursive: true });
  const real = Deno.execPath();
  const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  const cases = RUNNABLE.map((task) =>
    `  ${task}) base=(${taskArgs(task).map(q).join(" ")}) ;;`
  ).join("\n");
  await writeFile(
    join(bin, "deno"),
    `#!/usr/bin/env bash
# deno task <name> as deno.json runs it; anything else is the real deno.
real=${q(real)}
if [ "\${1:-}" != task ]; then exec "$real" "$@"; fi
shift
while [ "\${1:-}" = --quiet ] || [ "\${1:-}" = -q ]; do shift; done
task="\${1:-}"; shift
case "$task" in
${cases}
  *) echo "docs test: deno task $task is not one the docs test runs" >&2; exit 97 ;;
esac
limit=0
if [ "$task" = sweep ] || { [ "$task" = batch ] && [[ "\${1:-}" =~ ^(submit|export|import)$ ]]; }; then
  for a in "$@"; do case "$a" in *.json) limit=1 ;; esac; done
  for a in "$@"; do case "$a" in --limit|--limit=*|--resume|--resume=*) limit=0 ;; esac; done
fi
if [ $limit = 1 ]; then set -- "$@" --limit "\${DOCS_LIMIT:-${DOCS_LIMIT}}"; fi
exec "$real" "\${base[@]}" "$@"
`,
    { mode: 0o755 },
  );
  await writeFile(
    join(bin, "npx"),
    `#!/usr/bin/env bash
[ "\${1:-}" = -y ] && shift
case "\${1:-}" in
  deno@${Deno.version.deno}) shift; exec deno "$@" ;;
  deno@*) echo "docs test: $1 is not the Deno that runs the tests (${Deno.version.deno})" >&2; exit 96 ;;
esac
echo "docs test: npx $* is not run" >&2; exit 97
`,
    { mode: 0o755 },
  );
  await writeFile(
    join(bin, "python"),
    `#!/usr/bin/env bash
if [ "\${1:-}" = -m ] && [ "\${2:-}" = vllm.entrypoints.openai.run_batch ]; then
  shift 2
  exec ${q(real)} run -A --config ${q(join(ROOT, "deno.json"))} ${
      q(join(ROOT, "tests/docs/_fake_vllm.ts"))
    } "$@"
fi
echo "docs test: python $* is not run" >&2; exit 97
`,
    { mode: 0o755 },
  );
}

/** What the pages' commands run with. */
export interface DocsContext {
  /** A temporary folder; each page gets a folder inside. */
  tmp: string;
  /** The stand-ins' folder (`writeBin`). */
  bin: string;
  /** The test's sim server. */
  sim: string;
  /** Key variables (taken out of the inherited environment). */
  keys: readonly string[];
}

/** A ts block's file: `../lib/` imports made absolute (it runs elsewhere). */
export function tsSource(block: Block): string {
  return block.text.replace(
    /(["'])\.\.\/lib\//g,
    `$1${new URL("lib/", `file://${ROOT}/`).href}`,
  );
}

/** Problems with a command's output beside its exit code. */
function outputProblems(output: string, code: number): string[] {
  const out: string[] = [];
  if (/os error \d+/i.test(output)) out.push("a raw OS error");
  if (/^\s{4}at \S.*:\d+:\d+\)?$/m.test(output) || /Uncaught /.test(output)) {
    out.push("a stack trace");
  }
  if (code !== 0 && !/Cannot [^:\n]+: /.test(output)) {
    out.push('no "Cannot <action>: <why>" message');
  }
  return out;
}

/** The last lines of an output, for a message. */
function tail(output: string, n = 15): string {
  return output.trimEnd().split("\n").slice(-n).map((l) => `    ${l}`).join(
    "\n",
  );
}

/** A free TCP port on loopback. */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** A running `sh server` block. */
interface Served {
  child: Deno.ChildProcess;
  rest: Promise<string>;
}

/**
 * Runs one page's blocks in order in `<tmp>/<page>`.
 *
 * @returns What went wrong, one entry per failed block or command.
 */
export async function runPage(
  page: Page,
  ctx: DocsContext,
): Promise<string[]> {
  const dir = join(ctx.tmp, page.path.replace(/[/.]/g, "_"));
  await mkdir(dir, { recursive: true });
  await cp(join(ROOT, "data"), join(dir, "data"), { recursive: true });
  await cp(join(ROOT, "deploy"), join(dir, "deploy"), { recursive: true });
  const env = Deno.env.toObject();
  for (const key of ctx.keys) delete env[key];
  Object.assign(env, {
    PATH: `${ctx.bin}:${env.PATH ?? "/usr/bin:/bin"}`,
    NO_COLOR: "1",
    DOCS_SIM_URL: ctx.sim,
    DENO_NO_UPDATE_CHECK: "1",
  });
  const servers = new Map<string, string>();
  const running: Served[] = [];
  const prelude: string[] = [];
  const problems: string[] = [];
  const at = (b: Block) => `${b.page}:${b.line}`;
  const swap = (text: string) => swapEndpoints(text, servers, ctx.sim);

  const checkConfig = async (
    json: unknown,
    label: string,
    baseDir: string,
  ) => {
    try {
      const config = parseConfig(json, label);
      await planSweep(config, { baseDir, measure: false });
    } catch (error) {
      problems.push(`${label}: ${(error as Error).message}`);
    }
  };

  try {
    for (const block of page.blocks) {
      const handler = handlerOf(block);
      if (typeof handler === "string") {
        problems.push(`${at(block)}: ${handler}`);
        continue;
      }
      switch (handler.kind) {
        case "text":
        case "covered":
        case "needs":
          break;
        case "file": {
          const own = join(ROOT, handler.name);
          const text = swap(block.text);
          let shipped: string | null = null;
          try {
            shipped = await Deno.readTextFile(own);
          } catch {
            // not a project file: the page's own
          }
          if (shipped !== null) {
            const same = block.lang === "json"
              ? isDeepStrictEqual(JSON.parse(shipped), JSON.parse(block.text))
              : shipped === block.text;
            if (!same) {
              problems.push(
                `${at(block)}: differs from the project's ${handler.name}`,
              );
            }
          } else {
            const path = join(dir, handler.name);
            await mkdir(dirname(path), { recursive: true });
            await Deno.writeTextFile(path, text);
          }
          if (handler.config) {
            await checkConfig(
              JSON.parse(text),
              `${at(block)} (${handler.name})`,
              dirname(join(dir, handler.name)),
            );
          }
          break;
        }
        case "config":
          await checkConfig(JSON.parse(swap(block.text)), at(block), dir);
          break;
        case "suite-entry":
          await checkConfig(
            {
              name: "docs",
              models: [{ name: "sim-strong", provider: "sim" }],
              suites: [JSON.parse(swap(block.text))],
            },
            at(block),
            join(dir, "data", "configs"),
          );
          break;
        case "server": {
          const [command, ...more] = commands(block.text);
          if (command === undefined || more.length > 0) {
            problems.push(`${at(block)}: a server block holds one command`);
            break;
          }
          const written = /--port\s+(\d+)/.exec(command.text)?.[1];
          if (written === undefined) {
            problems.push(`${at(block)}: a server block needs --port N`);
            break;
          }
          const child = new Deno.Command("bash", {
            args: [
              "--noprofile",
              "--norc",
              "-c",
              `exec ${
                command.text.replace(/--port\s+\d+/, `--port ${freePort()}`)
              }`,
            ],
            cwd: dir,
            env,
            stdin: "null",
            stdout: "piped",
            stderr: "piped",
          }).spawn();
          const reader = child.stdout.pipeThrough(new TextDecoderStream())
            .getReader();
          let seen = "";
          const deadline = Date.now() + 30_000;
          let url: string | undefined;
          while (url === undefined && Date.now() < deadline) {
            const { value, done } = await reader.read();
            if (done) break;
            seen += value;
            url = /Sim server: (\S+)/.exec(seen)?.[1];
          }
          const rest = (async () => {
            for (;;) {
              const { value, done } = await reader.read();
              if (done) return seen;
              seen += value;
            }
          })();
          const stderr = new Response(child.stderr).text();
          running.push({
            child,
            rest: Promise.all([rest, stderr]).then(([a, b]) => a + b),
          });
          if (url === undefined) {
            problems.push(`${at(block)}: the server did not start:\n${seen}`);
            break;
          }
          servers.set(written, url);
          break;
        }
        case "sh":
          for (const command of commands(block.text)) {
            if (command.assignment) {
              prelude.push(command.text);
              continue;
            }
            const resolved = resolvePlaceholders(swap(command.text), dir);
            if (resolved.missing.length > 0) {
              problems.push(
                `${
                  at(block)
                }: ${command.text}: nothing in the page's folder matches ${
                  resolved.missing.join(", ")
                }`,
              );
              continue;
            }
            const out = await new Deno.Command("bash", {
              args: [
                "--noprofile",
                "--norc",
                "-c",
                ["set -e", ...prelude, resolved.text].join("\n"),
              ],
              cwd: dir,
              env,
              stdin: "null",
              stdout: "piped",
              stderr: "piped",
              signal: AbortSignal.timeout(180_000),
            }).output();
            const output = new TextDecoder().decode(out.stderr) +
              new TextDecoder().decode(out.stdout);
            if (Deno.env.get("DOCS_SHOW") === "1") {
              console.log(
                `## ${
                  at(block)
                }: ${resolved.text} (exit ${out.code})\n${output}`,
              );
            }
            const wrong = outputProblems(output, out.code);
            if (out.code !== command.exit) {
              wrong.unshift(`exit ${out.code}, expected ${command.exit}`);
            }
            for (const quote of command.says) {
              if (!says(output, quote)) {
                wrong.push(`the output does not say "${quote.join(" ... ")}"`);
              }
            }
            if (wrong.length > 0) {
              problems.push(
                `${at(block)}: ${command.text}: ${wrong.join("; ")}\n${
                  tail(output)
                }`,
              );
            }
          }
          break;
        case "ts": {
          const source = tsSource(block).replace(
            /"[^"\n]*"/g,
            (literal) => resolvePlaceholders(literal, dir).text,
          );
          const file = join(
            ctx.tmp,
            `${page.path.replace(/[/.]/g, "_")}-${block.line}.ts`,
          );
          await Deno.writeTextFile(file, source);
          const out = await new Deno.Command(Deno.execPath(), {
            args: [
              "run",
              "-A",
              "--no-check",
              "--config",
              join(ROOT, "deno.json"),
              file,
            ],
            cwd: dir,
            env,
            stdin: "null",
            stdout: "piped",
            stderr: "piped",
            signal: AbortSignal.timeout(180_000),
          }).output();
          const output = new TextDecoder().decode(out.stderr) +
            new TextDecoder().decode(out.stdout);
          if (Deno.env.get("DOCS_SHOW") === "1") {
            console.log(`## ${at(block)}: ts (exit ${out.code})\n${output}`);
          }
          if (out.code !== 0) {
            problems.push(
              `${at(block)}: the ts block exited ${out.code}\n${tail(output)}`,
            );
          }
          break;
        }
      }
    }
  } finally {
    for (const served of running) {
      try {
        served.child.kill("SIGINT");
      } catch {
        // already gone
      }
      await served.child.status;
      await served.rest;
    }
  }
  return problems;
}
