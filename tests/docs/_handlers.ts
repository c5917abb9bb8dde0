/**
 * Which way the docs test runs each fenced block, decided from the block
 * alone: a block no rule takes has no handler, and the test fails on it,
 * so a new block cannot slip in unrun.
 *
 * - ```` ```text ````: output or a layout, not run.
 * - `covered-by=FILE,...`: another test or script runs it (checked: the
 *   file exists and names the page or each command's task).
 * - `needs=SYSTEM` (`sh`): a cluster or Jupyter; the test checks that the
 *   files and flags the commands name exist.
 * - `file=NAME`: written into the page's folder for the commands after it
 *   (a path the project has is compared with the project's file instead);
 *   a `json` one that is a sweep config is also validated and planned,
 *   unless flagged `invalid` (a config a command after it is refused).
 * - `json`: a sweep config (validated and planned) or a suite entry
 *   (validated and planned inside a config of one sim model).
 * - `sh`: every command runs in the page's folder against the sim;
 *   `sh server`: one command that keeps running while the rest of the page
 *   runs.
 * - `ts`: type-checked, then run with `deno run`.
 */
import type { Block } from "./_markdown.ts";

/** How a block is run. */
export type Handler =
  | { kind: "text" }
  | { kind: "covered"; by: string[] }
  | { kind: "needs"; system: string }
  | { kind: "file"; name: string; config: boolean }
  | { kind: "config" }
  | { kind: "suite-entry" }
  | { kind: "sh" }
  | { kind: "server" }
  | { kind: "ts" };

/** The systems a `needs=` block may name, as the page must spell them. */
export const SYSTEMS: Readonly<Record<string, string>> = {
  slurm: "Slurm",
  kubernetes: "Kubernetes",
  jupyter: "Jupyter",
};

/** Whether a parsed JSON value is a sweep config. */
export function isConfig(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null &&
    "models" in value && "suites" in value;
}

/**
 * The handler of a block, or why it has none.
 *
 * @param block The block.
 * @returns The handler, or a sentence saying what is missing.
 */
export function handlerOf(block: Block): Handler | string {
  const { lang, attrs, flags } = block;
  const covered = attrs["covered-by"];
  if (covered !== undefined) {
    return { kind: "covered", by: covered.split(",").filter((s) => s !== "") };
  }
  if (lang === "text") return { kind: "text" };
  const needs = attrs.needs;
  if (needs !== undefined) {
    if (lang !== "sh") return `needs= is for sh blocks, not ${lang}`;
    if (SYSTEMS[needs] === undefined) {
      return `needs=${needs} is not one of ${Object.keys(SYSTEMS).join(", ")}`;
    }
    return { kind: "needs", system: needs };
  }
  let json: unknown;
  if (lang === "json") {
    try {
      json = JSON.parse(block.text);
    } catch (error) {
      return `a json block that is not JSON (${(error as Error).message})`;
    }
  }
  if (attrs.file !== undefined) {
    return {
      kind: "file",
      name: attrs.file,
      config: isConfig(json) && !flags.includes("invalid"),
    };
  }
  if (lang === "json") {
    if (isConfig(json)) return { kind: "config" };
    if (
      typeof json === "object" && json !== null && "name" in json &&
      ("params" in json || "templates" in json)
    ) return { kind: "suite-entry" };
    return "a json block that is neither a sweep config nor a suite entry; give it file=NAME if a command reads it";
  }
  if (lang === "sh") {
    if (flags.includes("server")) return { kind: "server" };
    if (flags.length > 0) return `unknown sh flags ${flags.join(" ")}`;
    return { kind: "sh" };
  }
  if (lang === "ts") return { kind: "ts" };
  return `no handler for a \`\`\`${
    lang || "(no language)"
  } block: mark it text, or give it file=NAME, needs=SYSTEM or covered-by=TEST`;
}
