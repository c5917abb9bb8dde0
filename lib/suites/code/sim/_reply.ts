/**
 * How the sim presents its code the way models do: lead-in lines and a
 * one-line note on the cost for the renderer to pick from, and, now and
 * then, a usage example after the function (a `__main__` block with a
 * print, a `console.log`) whose arguments come from the signature's
 * parameter names and types or a HumanEval prompt's own doctest, never
 * from the problem's tests.
 *
 * @module
 */
import { pick, type Uniform } from "../../../providers/sim/rng.ts";
import type { SimProfile } from "../../../providers/sim/types.ts";
import type { CodeLanguage } from "../params.ts";
import { topLevelParts } from "./_edits.ts";

/** Lines the renderer may put around the block. */
export interface Framing {
  /** Lead-in lines before the block (one is picked, or none). */
  leads: string[];
  /** One-line notes after it (one is picked, or none). */
  notes: string[];
}

/**
 * The lead-ins and notes of a code reply.
 *
 * @param entry The function's name.
 * @param chinese Whether the prompt is in Chinese.
 * @param complexity The time complexity the sim believes its code has, if it knows one.
 */
export function framing(
  entry: string,
  chinese: boolean,
  complexity: string | null,
): Framing {
  const c = complexity === null || complexity === "" ? null : complexity;
  if (chinese) {
    return {
      leads: ["以下是函数：", "代码如下：", `下面是 \`${entry}\` 的实现：`],
      notes: c === null
        ? []
        : [`时间复杂度为 ${c}。`, `该实现的时间复杂度是 ${c}。`],
    };
  }
  return {
    leads: [
      "Here is the function:",
      "Here's the implementation:",
      `Here is \`${entry}\`:`,
      "Solution:",
    ],
    notes: c === null ? [] : [
      `This runs in ${c} time.`,
      `Time complexity: ${c}.`,
      `The time complexity is ${c}.`,
    ],
  };
}

/**
 * The share of replies with a usage example: 15 % plus a fifth of the
 * profile's non-compliance (the prompt says not to print), so about 15 %
 * for `sim-strong` and 24 % for `sim-chatty`.
 */
export function exampleShare(profile: SimProfile): number {
  return 0.15 + 0.2 * (1 - profile.compliance);
}

/** Example values by parameter name, as a model would pick small inputs. */
const BY_NAME: Record<string, unknown> = {
  nums: [3, 1, 4, 1, 5, 9, 2, 6],
  citations: [3, 0, 6, 1, 5],
  reach: [2, 3, 1, 1, 4],
  piles: [4, 1, 3],
  parent: [-1, 0, 0, 1, 1],
  edges: [[0, 1], [1, 2], [2, 3]],
  queries: [[3, 4], [2, 4]],
  jobs: [[1, 3], [2, 6], [8, 10]],
  ranges: [[1, 3], [2, 6], [8, 10]],
  intervals: [[1, 3], [2, 6], [8, 10]],
  meetings: [[1, 3], [2, 6], [8, 10]],
  tree: [3, 9, 20, null, null, 15, 7],
  s: "abcabcbb",
  t: "abc",
  a: "listen",
  b: "silent",
  n: 4,
  k: 2,
  x: 5,
  target: 7,
  limit: 6,
  lo: 1,
  hi: 10,
  source: 0,
  base: 2,
  exp: 10,
  mod: 1000,
};

/** A value for a parameter the table does not know, by its annotation. */
function byType(type: string): unknown {
  const t = type.replace(/\s+/g, "");
  if (t.startsWith("list[list[")) return [[1, 2], [3, 4]];
  if (t.startsWith("list[str")) return ["a", "b", "c"];
  if (t.startsWith("list")) return [1, 2, 3];
  if (t.startsWith("str")) return "abc";
  if (t.startsWith("int") || t.startsWith("float")) return 3;
  return null;
}

function literal(value: unknown, language: CodeLanguage): string {
  if (value === null) return language === "python" ? "None" : "null";
  if (Array.isArray(value)) {
    return `[${value.map((v) => literal(v, language)).join(", ")}]`;
  }
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

/**
 * The call a bank problem's usage example makes, from its Python
 * signature's parameter names and types.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exampleCall } from "./_reply.ts";
 * assert.equal(exampleCall("maxWindowSum", "def max_window_sum(nums: list[int], k: int) -> int | None:", "javascript"), "maxWindowSum([3, 1, 4, 1, 5, 9, 2, 6], 2)");
 * assert.equal(exampleCall("f", "def f(tree: list, w: int) -> int:", "python"), "f([3, 9, 20, None, None, 15, 7], 3)");
 * ```
 */
export function exampleCall(
  entry: string,
  pythonSignature: string,
  language: CodeLanguage,
): string {
  const open = pythonSignature.indexOf("(");
  const close = pythonSignature.lastIndexOf(")");
  const params = open < 0 || close < open
    ? []
    : topLevelParts(pythonSignature.slice(open + 1, close));
  const args = params.map((p) => {
    const [name = "", type = ""] = p.replace(/=.*$/, "").split(":");
    const key = name.replace(/^\*+/, "").trim();
    return literal(key in BY_NAME ? BY_NAME[key] : byType(type), language);
  });
  return `${entry}(${args.join(", ")})`;
}

/** The first doctest call of the entry in a HumanEval prompt, if any. */
export function doctestCall(prompt: string, entry: string): string | null {
  const m = new RegExp(`^\\s*>>>\\s*(${entry}\\(.*\\))\\s*$`, "m").exec(prompt);
  return m?.[1] ?? null;
}

/**
 * A usage example after the function: for Python mostly a `__main__`
 * block with a print, else a commented print; for JavaScript a commented
 * `console.log`.
 *
 * @param call The call to show, e.g. `two_sum([2, 7], 9)`.
 * @param language The code's language.
 * @param rng The request's generator.
 * @returns The lines to append after the function.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { usageExample } from "./_reply.ts";
 * assert.equal(usageExample("f(2)", "python", () => 0.1), 'if __name__ == "__main__":\n    print(f(2))');
 * assert.equal(usageExample("f(2)", "javascript", () => 0.1), "// Example usage\nconsole.log(f(2));");
 * ```
 */
export function usageExample(
  call: string,
  language: CodeLanguage,
  rng: Uniform,
): string {
  if (language === "javascript") {
    return `${
      pick(rng, ["// Example usage", "// Example"])
    }\nconsole.log(${call});`;
  }
  return rng() < 0.75
    ? `if __name__ == "__main__":\n    print(${call})`
    : `# Example usage\nprint(${call})`;
}
