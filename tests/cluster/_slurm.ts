/**
 * A single-node Slurm cluster for tests: munged, slurmctld and slurmd on
 * localhost, from a `slurm.conf` written into a temporary folder, as root.
 * Every daemon runs in the foreground as a child of the test and is
 * stopped by its pid.
 */
import { join } from "node:path";

/** A free TCP port on loopback (bound, read, released). */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** Rejects after `ms` with `what` timed out. */
function deadline(ms: number, what: string): Promise<never> {
  return new Promise((_, reject) =>
    setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms)
  );
}

/** One daemon: its process, its output (kept in a log file) and when it said `ready`. */
class Daemon {
  readonly name: string;
  readonly #child: Deno.ChildProcess;
  readonly #ended: Promise<Deno.CommandStatus>;
  readonly ready: Promise<void>;
  #done = false;

  constructor(
    name: string,
    command: string,
    args: string[],
    log: string,
    ready: RegExp,
    env: Record<string, string>,
  ) {
    this.name = name;
    this.#child = new Deno.Command(command, {
      args,
      env,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.#ended = this.#child.status.then((status) => {
      this.#done = true;
      return status;
    });
    let said: () => void = () => {};
    const saidReady = new Promise<void>((resolve) => said = resolve);
    let seen: string | null = "";
    const file = Deno.openSync(log, { create: true, append: true });
    const pump = async (stream: ReadableStream<Uint8Array>) => {
      const text = new TextDecoder();
      for await (const chunk of stream) {
        file.writeSync(chunk);
        if (seen === null) continue;
        seen += text.decode(chunk, { stream: true });
        if (ready.test(seen)) {
          seen = null;
          said();
        }
      }
    };
    Promise.all([pump(this.#child.stdout), pump(this.#child.stderr)])
      .finally(() => file.close());
    // A daemon that exits before it is ready fails the wait at once.
    this.ready = Promise.race([
      saidReady,
      this.#ended.then((status) => {
        throw new Error(
          `${name} exited with code ${status.code} before it was ready; see ${log}`,
        );
      }),
    ]);
  }

  /** The daemon's pid. */
  get pid(): number {
    return this.#child.pid;
  }

  /** Stops it by pid: SIGTERM, then SIGKILL if it has not gone in 10 s. */
  async stop(): Promise<void> {
    if (this.#done) return;
    try {
      Deno.kill(this.pid, "SIGTERM");
    } catch {
      // already gone
    }
    const gone = await Promise.race([
      this.#ended.then(() => true),
      new Promise<false>((r) => setTimeout(() => r(false), 10_000)),
    ]);
    if (!gone) {
      try {
        Deno.kill(this.pid, "SIGKILL");
      } catch {
        // gone meanwhile
      }
      await this.#ended;
    }
  }
}

/** A running single-node cluster. */
export interface Cluster {
  /** The environment that points Slurm's commands at it (`SLURM_CONF`). */
  env: Record<string, string>;
  /** Its folder (config, state, logs). */
  dir: string;
  /** Runs a Slurm command against it; throws with its stderr when it fails. */
  run(
    command: string,
    args: string[],
    env?: Record<string, string>,
  ): Promise<string>;
  /** The daemons' pids, in start order. */
  pids: number[];
  /** Cancels what is still queued and stops every daemon it started, by pid. */
  stop(): Promise<void>;
}

/**
 * Starts munged, slurmctld and slurmd on localhost from a config written
 * into `dir` (2 CPUs, `proctrack/linuxproc`, `task/none`,
 * `select/cons_tres`, root as the Slurm user). The scheduler runs every
 * second and a requeued job may start again after 5 s (`cred_expire`;
 * Slurm's default is 120 s), so a test does not wait for minutes.
 *
 * @param dir An empty folder of the test's.
 * @param cwd Where Slurm's commands run (sbatch's submit folder).
 */
export async function startCluster(
  dir: string,
  cwd: string,
): Promise<Cluster> {
  for (const sub of ["state", "spool", "logs"]) {
    await Deno.mkdir(join(dir, sub), { recursive: true });
  }
  const key = join(dir, "munge.key");
  await Deno.writeFile(key, crypto.getRandomValues(new Uint8Array(1024)), {
    mode: 0o600,
  });
  const socket = join(dir, "munge.sock");
  const conf = join(dir, "slurm.conf");
  const [ctldPort, dPort] = [freePort(), freePort()];
  await Deno.writeTextFile(
    conf,
    [
      "ClusterName=calcbenchtest",
      "SlurmctldHost=localhost(127.0.0.1)",
      "AuthType=auth/munge",
      `AuthInfo=socket=${socket},cred_expire=5`,
      "CredType=cred/munge",
      "SlurmUser=root",
      "SlurmdUser=root",
      `SlurmctldPort=${ctldPort}`,
      `SlurmdPort=${dPort}`,
      `StateSaveLocation=${dir}/state`,
      `SlurmdSpoolDir=${dir}/spool`,
      `SlurmctldPidFile=${dir}/slurmctld.pid`,
      `SlurmdPidFile=${dir}/slurmd.pid`,
      `SlurmctldLogFile=${dir}/logs/slurmctld.log`,
      `SlurmdLogFile=${dir}/logs/slurmd.log`,
      "ProctrackType=proctrack/linuxproc",
      "TaskPlugin=task/none",
      "SelectType=select/cons_tres",
      "SelectTypeParameters=CR_CPU",
      "SchedulerType=sched/builtin",
      "SchedulerParameters=batch_sched_delay=0,sched_interval=1",
      "JobCompType=jobcomp/none",
      "AccountingStorageType=accounting_storage/none",
      "JobAcctGatherType=jobacct_gather/none",
      "MpiDefault=none",
      "MailProg=/bin/true",
      "ReturnToService=2",
      "KillWait=10",
      "NodeName=localhost NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN",
      "PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP",
      "",
    ].join("\n"),
  );
  const slurmEnv = { SLURM_CONF: conf };
  const daemons: Daemon[] = [];
  const stopAll = async () => {
    for (const d of [...daemons].reverse()) await d.stop();
  };
  const command = (
    name: string,
    args: string[],
    extra: Record<string, string> = {},
  ) =>
    new Deno.Command(name, {
      args,
      cwd,
      env: { ...slurmEnv, ...extra },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    });
  const run = async (
    name: string,
    args: string[],
    extra: Record<string, string> = {},
  ) => {
    const out = await command(name, args, extra).output();
    const text = new TextDecoder();
    if (out.code !== 0) {
      throw new Error(
        `${name} ${args.join(" ")} exited ${out.code}: ${
          text.decode(out.stderr)
        }`,
      );
    }
    return text.decode(out.stdout);
  };
  try {
    const start = async (
      name: string,
      command: string,
      args: string[],
      ready: RegExp,
    ) => {
      const daemon = new Daemon(
        name,
        command,
        args,
        join(dir, "logs", `${name}.out`),
        ready,
        slurmEnv,
      );
      daemons.push(daemon);
      await Promise.race([daemon.ready, deadline(20_000, `starting ${name}`)]);
    };
    await start("munged", "/usr/sbin/munged", [
      "--foreground",
      "--force",
      `--socket=${socket}`,
      `--key-file=${key}`,
      `--pid-file=${dir}/munged.pid`,
      `--seed-file=${dir}/munged.seed`,
      `--log-file=${dir}/logs/munged.log`,
    ], /Created \d+ work threads/);
    await start(
      "slurmctld",
      "/usr/sbin/slurmctld",
      ["-D", "-i", "-f", conf],
      /Running as primary controller/,
    );
    await start(
      "slurmd",
      "/usr/sbin/slurmd",
      ["-D", "-N", "localhost", "-f", conf],
      /slurmd started on/,
    );
  } catch (error) {
    await stopAll();
    throw error;
  }
  return {
    env: slurmEnv,
    dir,
    run,
    pids: daemons.map((d) => d.pid),
    async stop() {
      // Jobs still queued or running (a failed test) are cancelled first,
      // so no task of ours outlives the daemons; then each daemon by pid.
      try {
        if ((await run("squeue", ["-h", "-o", "%i"])).trim() !== "") {
          await run("scancel", ["--user=root"]);
          const until = Date.now() + 20_000;
          while (
            (await run("squeue", ["-h", "-o", "%i"])).trim() !== "" &&
            Date.now() < until
          ) await new Promise((r) => setTimeout(r, 500));
        }
      } catch {
        // the controller is gone: nothing more to cancel through it
      }
      await stopAll();
    },
  };
}
