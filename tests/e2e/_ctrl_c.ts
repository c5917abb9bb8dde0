/**
 * Ctrl-C as a terminal sends it (SIGINT to the whole foreground process
 * group of `deno task sweep`), for the test (once) and the bench (ten
 * times in a row, to see how often a rare race spoils the stop).
 *
 * @module
 */
import assert from "node:assert/strict";
import { startSimServer } from "../../lib/mod.ts";
import { readManifest } from "../../lib/store/mod.ts";
import { e2eSuite, readRows, withTemp } from "./_setup.ts";
import { countRows, ROOT } from "./_cli.ts";

/** The process group id of `pid`, from /proc (field 5 of its stat line). */
export async function pgidOf(pid: number): Promise<number> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
  // The command name (field 2) is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[2]);
}

/**
 * Starts `deno task sweep` as a terminal would: in a process group of its
 * own (`setsid`), so a Ctrl-C can be sent to the whole group.
 */
export function spawnTaskInGroup(args: string[]): Deno.ChildProcess {
  return new Deno.Command("setsid", {
    args: [
      Deno.execPath(),
      "task",
      "--quiet",
      "--config",
      `${ROOT}/deno.json`,
      "sweep",
      ...args,
    ],
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/**
 * Starts a sweep `runs` times over a slow sim server and presses Ctrl-C
 * in each once a few rows are stored: "clean" per run that exited 130
 * with the resume line, its rows saved and the manifest marked
 * interrupted and ended; otherwise what went wrong.
 */
export function ctrlCGroupRuns(runs: number): Promise<string[]> {
  return withTemp(async (dir) => {
    const { entry } = await e2eSuite(100, 3);
    // 25 ms per request, 2 in flight: 200 rows would take 2.5 s, so every
    // run is interrupted with most of its rows still to do.
    const server = await startSimServer({ latencyMs: 25 });
    try {
      await Deno.writeTextFile(
        `${dir}/c.json`,
        JSON.stringify({
          name: "sigint",
          samples: 2,
          concurrency: 2,
          outputDir: `${dir}/out`,
          suites: [entry],
          models: [{
            name: "avg",
            provider: "openai",
            model: "sim-average",
            baseURL: server.baseURL,
            concurrency: 2,
          }],
        }),
      );
      const outcomes: string[] = [];
      for (let run = 0; run < runs; run++) {
        const runDir = `${dir}/out/run${run}`;
        const child = spawnTaskInGroup([
          `${dir}/c.json`,
          "--run-dir",
          runDir,
          "--progress",
          "lines",
        ]);
        // setsid makes the task the leader of a new group (pgid = pid) once
        // it has run; until then the child is still in ours.
        for (let i = 0; (await pgidOf(child.pid)) !== child.pid; i++) {
          assert.ok(i < 500, "setsid did not make the task a group leader");
          await new Promise((r) => setTimeout(r, 10));
        }
        const pgid = child.pid;
        // Wait for a few rows (up to 60 s on a loaded machine).
        const deadline = Date.now() + 60_000;
        while ((await countRows(`${runDir}/results.jsonl`)) < 3) {
          assert.ok(Date.now() < deadline, `run ${run}: no rows appeared`);
          await new Promise((r) => setTimeout(r, 10));
        }
        // What a terminal does on Ctrl-C: SIGINT to every process in the
        // foreground group (here `deno task` and the sweep it started).
        Deno.kill(-pgid, "SIGINT");
        const out = await child.output();
        const stderr = new TextDecoder().decode(out.stderr);
        const manifest = await readManifest(runDir);
        const rows = await readRows(runDir);
        const resume =
          /Interrupted: (\d+) of (\d+) rows saved in \S+\. Resume with: deno task sweep --resume (\S+)/
            .exec(stderr);
        const clean = out.code === 130 && resume !== null &&
          resume[3] === runDir && Number(resume[1]) === rows.length &&
          rows.length < Number(resume[2]) &&
          manifest.interrupted === true && manifest.endedAt !== null;
        outcomes.push(
          clean
            ? "clean"
            : `run ${run}: exit ${out.code}, interrupted ${manifest.interrupted}, endedAt ${manifest.endedAt}, stderr:\n${stderr}`,
        );
      }
      return outcomes;
    } finally {
      await server.close();
    }
  });
}
