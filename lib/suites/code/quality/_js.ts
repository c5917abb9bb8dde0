/**
 * JavaScript/TypeScript quality measures: an acorn AST walk for lines,
 * cyclomatic complexity and nesting, and `deno lint` for findings.
 *
 * @module
 */
import {
  childNodes,
  type JsNode,
  type JsProgram,
  parseJavaScript,
  topLevelFunctions,
} from "./js_ast.ts";
import type { QualityMeasures } from "./types.ts";
import { tickBatcher } from "./_batch.ts";

const DECISIONS = new Set([
  "IfStatement",
  "ConditionalExpression",
  "ForStatement",
  "ForInStatement",
  "ForOfStatement",
  "WhileStatement",
  "DoWhileStatement",
  "CatchClause",
]);

const NESTING = new Set([
  "IfStatement",
  "ForStatement",
  "ForInStatement",
  "ForOfStatement",
  "WhileStatement",
  "DoWhileStatement",
  "SwitchStatement",
  "TryStatement",
  "WithStatement",
]);

const FUNCTIONS = new Set([
  "FunctionDeclaration",
  "FunctionExpression",
  "ArrowFunctionExpression",
]);

/** 1 + decision points of the whole program. */
function cyclomatic(ast: JsNode): number {
  let count = 1;
  const stack = [ast];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (DECISIONS.has(node.type)) count++;
    else if (node.type === "LogicalExpression") count++;
    else if (
      node.type === "AssignmentExpression" &&
      ["&&=", "||=", "??="].includes(node.operator as string)
    ) count++;
    else if (node.type === "SwitchCase" && node.test !== null) count++;
    stack.push(...childNodes(node));
  }
  return count;
}

/** Deepest nesting of control statements within one function (ESLint max-depth). */
function nesting(ast: JsNode): number {
  let max = 0;
  const visit = (node: JsNode, depth: number, parent: JsNode | null) => {
    let d = depth;
    if (FUNCTIONS.has(node.type)) d = 0;
    else if (NESTING.has(node.type)) {
      // `else if` continues its chain, as in ESLint's max-depth.
      const elseIf = node.type === "IfStatement" &&
        parent?.type === "IfStatement" && parent.alternate === node;
      if (!elseIf) d = depth + 1;
      max = Math.max(max, d);
    }
    for (const child of childNodes(node)) visit(child, d, node);
  };
  visit(ast, 0, null);
  return max;
}

/** Lines holding something other than whitespace and comments. */
function codeLines(code: string, program: JsProgram | null): number {
  let text = code;
  if (program !== null) {
    const chars = code.split("");
    for (const c of program.comments) {
      for (let i = c.start; i < c.end; i++) {
        if (chars[i] !== "\n") chars[i] = " ";
      }
    }
    text = chars.join("");
  } else {
    text = code.replace(/^\s*\/\/.*$/gm, "");
  }
  return text.split("\n").filter((l) => l.trim() !== "").length;
}

/**
 * Findings of `deno lint` (default rules, no project config) on the code
 * written to a temporary file. The program's top-level functions are
 * exported first so an uncalled entry function is not "unused", and
 * `deno-lint-ignore` directives are defused.
 */
async function denoLint(
  code: string,
  program: JsProgram,
): Promise<string[] | null> {
  const names = topLevelFunctions(program).filter((f) => !f.exported).map((
    f,
  ) => f.name);
  // A candidate must not silence its own measurement: ignore directives
  // are defused (offsets and lines stay where they were).
  const defused = code.replace(/deno-lint-ignore/g, "deno-lint-ignor_");
  const source = names.length > 0
    ? `${defused}\nexport { ${[...new Set(names)].join(", ")} };\n`
    : defused;
  return await lintQueued({ source, typescript: program.typescript });
}

interface LintItem {
  source: string;
  typescript: boolean;
}

/**
 * Lints a source with the others queued beside it: requests made in the
 * same tick, and those that wait for a free process (2 run at once),
 * share one `deno lint` run of at most 32 files (a Deno start is most of
 * a lint's cost: about 0.15 s of CPU each on a 2-core machine, one per
 * JavaScript row before).
 */
const lintQueued = tickBatcher(lintFiles, 32, 2);

/**
 * Findings per source (null: not measured), from one `deno lint` run over
 * a temporary folder with one file per source.
 */
async function lintFiles(
  items: readonly LintItem[],
): Promise<(string[] | null)[]> {
  const none = items.map(() => null);
  let dir: string;
  try {
    // the real path: deno lint names files by it (macOS's /tmp is a link)
    dir = await Deno.realPath(
      await Deno.makeTempDir({ prefix: "calc-bench-lint-" }),
    );
  } catch {
    return none; // no write permission: lint is not measured
  }
  try {
    const files = items.map((item, i) =>
      `${dir}/candidate${i}.${item.typescript ? "ts" : "js"}`
    );
    await Promise.all(
      files.map((f, i) => Deno.writeTextFile(f, items[i]!.source)),
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["lint", "--no-config", "--json", ...files],
      cwd: dir,
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    const report = JSON.parse(new TextDecoder().decode(out.stdout)) as {
      diagnostics?: { code?: string; filename?: string }[];
      errors?: { file_path?: string }[];
    };
    const index = new Map(files.map((f, i) => [f, i]));
    const findings: (string[] | null)[] = items.map(() => []);
    // a finding or error of no known file: the run cannot be split up,
    // so nothing is measured rather than a finding lost
    for (const d of report.diagnostics ?? []) {
      const i = index.get(pathOf(d.filename ?? ""));
      if (i === undefined) return none;
      findings[i]?.push(d.code ?? "unknown");
    }
    for (const e of report.errors ?? []) {
      const i = index.get(pathOf(e.file_path ?? ""));
      if (i === undefined) return none;
      findings[i] = null;
    }
    return findings;
  } catch {
    return none;
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** A path from `deno lint`'s file name (a `file://` URL or a path). */
function pathOf(name: string): string {
  return name.startsWith("file://")
    ? decodeURIComponent(new URL(name).pathname)
    : name;
}

/** Measures a JavaScript or TypeScript program; never executes it. */
export async function measureJavaScript(
  code: string,
): Promise<QualityMeasures> {
  const program = parseJavaScript(code);
  if (program === null) {
    return {
      lines: codeLines(code, null),
      cyclomatic: 0,
      nesting: 0,
      lint_findings: null,
      parse_ok: false,
      findings: [],
    };
  }
  const findings = await denoLint(code, program);
  return {
    lines: codeLines(code, program),
    cyclomatic: cyclomatic(program.ast),
    nesting: nesting(program.ast),
    lint_findings: findings === null ? null : findings.length,
    parse_ok: true,
    findings: findings ?? [],
  };
}
