/**
 * The README and every page of docs/ work as written: every fenced block
 * has a way to run (`_handlers.ts`) and runs (`_run.ts`): configs are
 * validated and planned, commands run against the sim in a copy of the
 * data, TypeScript type-checks and runs; commands that need a cluster or
 * Jupyter name files and flags that exist. The README fits on a few
 * screens and keeps the Quick start commands `.ci/run` and users rely on.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { taskArgs } from "../e2e/_table.ts";
import {
  type Block,
  inlineTaskCommands,
  readPages,
  ROOT,
} from "./_markdown.ts";
import { handlerOf, SYSTEMS } from "./_handlers.ts";
import { namesIn, runPage, startDocsSim, tsSource, writeBin } from "./_run.ts";
import { commands, words } from "./_shell.ts";

const PAGES = await readPages();
const README = PAGES.find((p) => p.path === "README.md")!;
const TASKS = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")))
  .tasks as Record<string, string>;

/** The Quick start commands, byte for byte (`.ci/run` runs the second). */
const QUICK_START = [
  "npx -y deno@2.9.6 task demo",
  "npx -y deno@2.9.6 task test",
];

/** The sections the README must have, in order. */
const SECTIONS = [
  "Quick start",
  "Point at a real model",
  "Bring your own questions",
  "Group by anything",
  "The four suites",
  "Notebooks",
  "The report",
  "Built on",
  "Documentation",
];

const at = (b: Block) => `${b.page}:${b.line}`;
const decode = (b: Uint8Array) => new TextDecoder().decode(b);

/** Output of a command (stdout and stderr), whatever its exit code. */
async function outputOf(
  program: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<string> {
  try {
    const out = await new Deno.Command(program, {
      args,
      cwd: ROOT,
      env: { NO_COLOR: "1", ...env },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    return decode(out.stdout) + decode(out.stderr);
  } catch {
    return "";
  }
}

/** The flags (`--x`, `-x`) a command's text uses. */
function flagsIn(text: string): string[] {
  return [...text.matchAll(/(?<![\w-])(--?[a-zA-Z][a-zA-Z0-9-]*)/g)]
    .map((m) => m[1]!);
}

/** Whether a help text lists a flag as a word of its own. */
function lists(help: string, flag: string): boolean {
  const escaped = flag.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![\\w-])${escaped}(?![\\w-])`).test(help);
}

const usages = new Map<string, Promise<string>>();
/** A task's usage text (`--help`); "" for tasks that take no flags. */
function usageOf(task: string): Promise<string> {
  if (["test", "test:fast", "check", "bench"].includes(task)) {
    return Promise.resolve("");
  }
  let usage = usages.get(task);
  if (usage === undefined) {
    usage = outputOf(Deno.execPath(), [...taskArgs(task), "--help"]);
    usages.set(task, usage);
  }
  return usage;
}

/** What is wrong with a `deno task ...` command's task and flags. */
async function taskProblems(command: string): Promise<string[]> {
  const [, task = ""] = /^deno task (\S+)/.exec(command) ?? [];
  if (task.startsWith("<")) return [];
  if (TASKS[task] === undefined) return [`no deno.json task "${task}"`];
  const usage = await usageOf(task);
  return flagsIn(command.slice(`deno task ${task}`.length))
    .filter((f) => f.startsWith("--") && !lists(usage, f))
    .map((f) => `deno task ${task} does not list ${f} in its usage`);
}

Deno.test("README.md fits: at most 350 lines, a contents list near the top that links every section, and the sections a newcomer needs", () => {
  const lines = README.text.split("\n");
  const count = README.text.endsWith("\n") ? lines.length - 1 : lines.length;
  assert.ok(count <= 350, `README.md is ${count} lines`);
  const headings = lines.filter((l) => l.startsWith("## ")).map((l) =>
    l.slice(3)
  );
  assert.equal(headings[0], "Contents");
  assert.ok(
    lines.indexOf("## Contents") < 20,
    "the contents list is not near the top",
  );
  assert.deepEqual(headings.slice(1), SECTIONS);
  const contents = README.text.slice(
    README.text.indexOf("## Contents"),
    README.text.indexOf("## Quick start"),
  );
  for (const section of SECTIONS) {
    assert.ok(
      contents.includes(`[${section}](#`),
      `the contents list lacks ${section}`,
    );
  }
  const intro = README.text.slice(
    README.text.indexOf("\n") + 1,
    README.text.indexOf("## Contents"),
  ).trim().split("\n");
  assert.ok(
    intro.length >= 3 && intro.length <= 6,
    `"what it is" is ${intro.length} lines`,
  );
});

Deno.test("README's Quick start runs the commands .ci/run and users rely on, byte for byte, with the Deno the tests run on", () => {
  const block = README.blocks.find((b) => b.heading === "## Quick start");
  assert.ok(block, "Quick start has no block");
  assert.deepEqual(
    commands(block.text).map((c) => c.text),
    QUICK_START,
  );
  assert.match(
    commands(block.text)[0]!.comment,
    /first run shows Deno installing the npm packages/,
  );
  assert.equal(Deno.version.deno, "2.9.6");
  const ci = Deno.readTextFileSync(join(ROOT, ".ci/run"));
  assert.match(ci, /^DENO_VERSION=2\.9\.6$/m);
  assert.match(ci, /^deno task test /m);
});

Deno.test("every docs page opens with a title and a one-paragraph summary, and the README's Documentation section links every page", () => {
  const documentation = README.text.slice(
    README.text.indexOf("## Documentation"),
  );
  for (const page of PAGES.filter((p) => p.path !== "README.md")) {
    const [title, blank, ...rest] = page.text.split("\n");
    assert.match(title!, /^# \S/, `${page.path} has no title`);
    assert.equal(blank, "", page.path);
    const summary = rest.slice(0, rest.indexOf(""));
    assert.ok(
      summary.length >= 2 && !/^(#|```|\||- )/.test(summary[0]!),
      `${page.path} does not open with a paragraph`,
    );
    assert.ok(
      documentation.includes(`](${page.path})`),
      `README's Documentation does not link ${page.path}`,
    );
  }
});

Deno.test("every fenced block of README.md and docs/*.md has a way to be run or checked", () => {
  const missing = PAGES.flatMap((p) =>
    p.blocks.flatMap((b) => {
      const handler = handlerOf(b);
      return typeof handler === "string" ? [`${at(b)}: ${handler}`] : [];
    })
  );
  assert.deepEqual(missing, []);
  // A file= block is read by a command or config after it on its page.
  for (const page of PAGES) {
    page.blocks.forEach((b, i) => {
      const name = b.attrs.file;
      if (name === undefined) return;
      const later = page.blocks.slice(i + 1).map((l) => l.text).join("\n");
      const base = name.split("/").at(-1)!;
      assert.ok(
        later.includes(base) || later.includes(name),
        `${at(b)}: nothing after it on the page reads ${name}`,
      );
    });
  }
});

Deno.test("covered-by blocks name a test or script that runs them", async () => {
  const problems: string[] = [];
  for (const page of PAGES) {
    for (const block of page.blocks) {
      const handler = handlerOf(block);
      if (typeof handler === "string" || handler.kind !== "covered") continue;
      const texts = await Promise.all(handler.by.map(async (file) => {
        try {
          return await Deno.readTextFile(join(ROOT, file));
        } catch {
          problems.push(`${at(block)}: no file ${file}`);
          return "";
        }
      }));
      if (texts.some((t) => t.includes(page.path))) continue;
      for (const command of commands(block.text)) {
        const task = /task (\S+)/.exec(command.text)?.[1];
        const script = task === undefined
          ? undefined
          : /\s(lib\/\S+\.ts)/.exec(TASKS[task] ?? "")?.[1];
        if (
          task === undefined ||
          !texts.some((t) =>
            t.includes(`deno task ${task}`) ||
            (script !== undefined && t.includes(script))
          )
        ) {
          problems.push(
            `${at(block)}: ${
              handler.by.join(", ")
            } names neither ${page.path} nor ${command.text}`,
          );
        }
      }
    }
  }
  assert.deepEqual(problems, []);
});

Deno.test("needs= blocks: the page says what they need, and the files and flags their commands name exist", async () => {
  const problems: string[] = [];
  const slurmConf = await Deno.makeTempFile({ suffix: ".conf" });
  await Deno.writeTextFile(
    slurmConf,
    "ClusterName=docs\nSlurmctldHost=localhost\n",
  );
  try {
    for (const page of PAGES) {
      const files = new Set(
        page.blocks.flatMap((b) => b.attrs.file ? [b.attrs.file] : []),
      );
      const exists = (path: string) => {
        if (files.has(path)) return true;
        try {
          Deno.statSync(join(ROOT, path));
          return true;
        } catch {
          return false;
        }
      };
      for (const block of page.blocks) {
        const handler = handlerOf(block);
        if (typeof handler === "string" || handler.kind !== "needs") continue;
        const system = SYSTEMS[handler.system]!;
        if (!new RegExp(`needs? ${system}`, "i").test(block.before)) {
          problems.push(
            `${at(block)}: the text above it does not say it needs ${system}`,
          );
        }
        const manifests: string[] = [];
        for (const command of commands(block.text)) {
          const inner = [...command.text.matchAll(/\$\(([^)]*)\)/g)].map((m) =>
            m[1]!
          );
          const outer = command.text.replace(/\$\([^)]*\)/g, "X");
          for (
            const part of [...inner, ...outer.split(/&&|;|\|/)].map((p) =>
              words(p.trim())
            )
          ) {
            while (part.length > 0 && /^[A-Za-z_]\w*=/.test(part[0]!)) {
              part.shift();
            }
            const [program, ...args] = part;
            const where = `${at(block)}: ${command.text}`;
            if (program === undefined || program === "export") continue;
            if (program === "deno" && args[0] === "task") {
              for (const p of await taskProblems(part.join(" "))) {
                problems.push(`${where}: ${p}`);
              }
            } else if (program === "deno") {
              const help = await outputOf(Deno.execPath(), [
                args[0]!,
                "--help",
              ]);
              for (const f of flagsIn(args.slice(1).join(" "))) {
                if (!lists(help, f)) {
                  problems.push(`${where}: deno ${args[0]} does not list ${f}`);
                }
              }
            } else if (program === "sbatch") {
              for (const a of args) {
                if (
                  !a.startsWith("-") && a.includes(".") && !a.includes("$") &&
                  !exists(a)
                ) {
                  problems.push(`${where}: no file ${a}`);
                }
              }
              const help = await outputOf("sbatch", ["--help"], {
                SLURM_CONF: slurmConf,
              });
              if (help.includes("--array")) {
                for (const f of flagsIn(args.join(" "))) {
                  if (!lists(help, f)) {
                    problems.push(`${where}: sbatch does not list ${f}`);
                  }
                }
              }
            } else if (program === "kubectl") {
              const verb = args[0]!;
              const f = args.indexOf("-f");
              const file = f < 0 ? undefined : args[f + 1];
              if (file !== undefined) {
                if (!exists(file)) problems.push(`${where}: no file ${file}`);
                else manifests.push(await Deno.readTextFile(join(ROOT, file)));
              }
              const l = args.indexOf("-l");
              if (l >= 0) {
                const [key, value] = args[l + 1]!.split("=");
                if (!manifests.some((m) => m.includes(`${key}: ${value}`))) {
                  problems.push(
                    `${where}: no manifest has the label ${key}: ${value}`,
                  );
                }
              }
              for (const a of args.filter((a) => a.startsWith("job/"))) {
                if (!manifests.some((m) => m.includes(`name: ${a.slice(4)}`))) {
                  problems.push(
                    `${where}: no manifest names the Job ${a.slice(4)}`,
                  );
                }
              }
              const help = await outputOf("kubectl", [verb, "--help"]);
              if (help.includes("Usage")) {
                for (const flag of flagsIn(args.slice(1).join(" "))) {
                  if (!lists(help, flag.split("=")[0]!)) {
                    problems.push(
                      `${where}: kubectl ${verb} does not list ${flag}`,
                    );
                  }
                }
              }
            } else {
              problems.push(`${where}: the test has no check for ${program}`);
            }
          }
        }
      }
    }
  } finally {
    await Deno.remove(slurmConf);
  }
  assert.deepEqual(problems, []);
});

Deno.test("inline `deno task` commands in the prose name tasks and flags that exist", async () => {
  const problems: string[] = [];
  for (const page of PAGES) {
    for (const command of inlineTaskCommands(page.text)) {
      for (const p of await taskProblems(command)) {
        problems.push(`${page.path}: \`${command}\`: ${p}`);
      }
    }
  }
  assert.deepEqual(problems, []);
});

Deno.test("ts blocks type-check", async () => {
  const dir = await Deno.makeTempDir({ prefix: "docs-ts-" });
  try {
    const files: string[] = [];
    for (const page of PAGES) {
      for (const block of page.blocks) {
        const handler = handlerOf(block);
        if (typeof handler === "string" || handler.kind !== "ts") continue;
        const file = join(
          dir,
          `${page.path.replace(/[/.]/g, "_")}-${block.line}.ts`,
        );
        await Deno.writeTextFile(file, tsSource(block));
        files.push(file);
      }
    }
    assert.ok(files.length > 0);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["check", "--config", join(ROOT, "deno.json"), ...files],
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, decode(out.stderr) + decode(out.stdout));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("every runnable block of README.md and docs/*.md runs against the sim", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "docs-run-" });
  const { models, keys } = namesIn(PAGES);
  const sim = await startDocsSim(models);
  try {
    const bin = join(tmp, "bin");
    await writeBin(bin);
    const context = { tmp, bin, sim: sim.baseURL, keys };
    const queue = [...PAGES];
    const problems: string[] = [];
    // Two pages at a time: the machine has 2 cores.
    await Promise.all([0, 1].map(async () => {
      for (let page = queue.shift(); page; page = queue.shift()) {
        const started = performance.now();
        problems.push(...await runPage(page, context));
        console.log(
          `${page.path}: ${
            ((performance.now() - started) / 1000).toFixed(1)
          } s`,
        );
      }
    }));
    assert.deepEqual(problems, []);
  } finally {
    await sim.close();
    await Deno.remove(tmp, { recursive: true });
  }
});
