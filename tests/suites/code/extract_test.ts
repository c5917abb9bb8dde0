import assert from "node:assert/strict";
import { createSandbox } from "../../../lib/sandbox/mod.ts";
import {
  type CodeExtraction,
  extractCode,
  type ExtractCodeOptions,
} from "../../../lib/suites/code/extract.ts";

const F = "`".repeat(3);
const PY: ExtractCodeOptions = { language: "python", entry: "two_sum" };
const JS: ExtractCodeOptions = { language: "javascript", entry: "twoSum" };

const PY_SOL =
  "def two_sum(nums, target):\n    seen = {}\n    for i, x in enumerate(nums):\n        if target - x in seen:\n            return [seen[target - x], i]\n        seen[x] = i\n    return []\n";
const JS_SOL =
  "function twoSum(nums, target) {\n  const seen = new Map();\n  for (let i = 0; i < nums.length; i++) {\n    if (seen.has(target - nums[i])) return [seen.get(target - nums[i]), i];\n    seen.set(nums[i], i);\n  }\n  return [];\n}\n";

interface Case {
  name: string;
  reply: string;
  options: ExtractCodeOptions;
  expect: Partial<CodeExtraction>;
  /** Substrings the reason must hold. */
  reason?: string[];
  /** Substrings the reason must not hold. */
  reasonLacks?: string[];
  /** Substrings the code must hold / must not hold. */
  has?: string[];
  lacks?: string[];
}

const CASES: Case[] = [
  {
    name: "chatty prose around one python fence",
    reply:
      `Sure! Here's an efficient O(n) solution using a hash map:\n\n${F}python\n${PY_SOL}${F}\n\nThis runs in linear time because each lookup is O(1).`,
    options: PY,
    expect: {
      rule: "fence_only",
      code: PY_SOL,
      language: "python",
      entry: "two_sum",
      candidates: 1,
    },
  },
  {
    name: "think block with a draft, then the final block",
    reply:
      `<think>\nLet me try brute force first:\n${F}python\ndef two_sum(nums, target):\n    for i in range(len(nums)):\n        pass\n${F}\nToo slow, use a dict.\n</think>\nFinal answer:\n${F}python\n${PY_SOL}${F}`,
    options: PY,
    expect: { rule: "fence_only", code: PY_SOL, candidates: 1 },
  },
  {
    name: "two blocks where the first is usage",
    reply:
      `You can call it like this:\n${F}python\nprint(two_sum([2, 7, 11, 15], 9))  # [0, 1]\n${F}\nAnd here is the implementation:\n${F}python\n${PY_SOL}${F}`,
    options: PY,
    expect: { rule: "fence_entry", code: PY_SOL, candidates: 1 },
    reason: ["dropped 1 other code block"],
  },
  {
    name: "solution then a test block defining test functions",
    reply:
      `${F}js\n${JS_SOL}${F}\nTests:\n${F}js\nfunction testTwoSum() {\n  console.assert(twoSum([3, 3], 6)[1] === 1);\n}\ntestTwoSum();\n${F}`,
    options: JS,
    expect: {
      rule: "fence_entry",
      code: JS_SOL,
      language: "javascript",
      candidates: 2,
    },
  },
  {
    name: "untagged fence",
    reply: `Here it is:\n${F}\n${PY_SOL}${F}`,
    options: PY,
    expect: { rule: "fence_untagged", code: PY_SOL, language: "python" },
  },
  {
    name: "no fence: code after prose, trailing prose cut",
    reply:
      `Here is my solution.\n\nimport math\n\n${PY_SOL}\nThe time complexity is O(n) and the space is O(n).`,
    options: PY,
    expect: { rule: "unfenced", code: `import math\n\n${PY_SOL}` },
  },
  {
    name: "no fence, javascript arrow function",
    reply:
      "const twoSum = (nums, target) => {\n  const m = new Map();\n  for (let i = 0; i < nums.length; i++) {\n    if (m.has(target - nums[i])) return [m.get(target - nums[i]), i];\n    m.set(nums[i], i);\n  }\n  return [];\n};\n",
    options: JS,
    expect: { rule: "unfenced", language: "javascript", entry: "twoSum" },
    has: ["const twoSum = (nums, target) => {", "};\n"],
  },
  {
    name: "renamed single function",
    reply: `${F}python\ndef solve(nums, target):\n    return [0, 1]\n${F}`,
    options: PY,
    expect: { rule: "renamed_single_function", entry: "solve" },
    reason: ["two_sum is not defined"],
  },
  {
    name: "reply in the other language (javascript asked, python given)",
    reply: `${F}python\ndef twoSum(nums, target):\n    return []\n${F}`,
    options: JS,
    expect: { rule: "other_language", language: "python", entry: "twoSum" },
    reason: ["asked for javascript, the code is python"],
  },
  {
    name: "other language with a python tag on javascript code",
    reply: `${F}python\n${JS_SOL}${F}`,
    options: PY,
    expect: { rule: "other_language", language: "javascript", entry: "twoSum" },
  },
  {
    name: "TypeScript annotations",
    reply:
      `${F}typescript\nfunction twoSum(nums: number[], target: number): number[] {\n  const seen = new Map<number, number>();\n  for (let i = 0; i < nums.length; i++) {\n    const j = seen.get(target - nums[i]!);\n    if (j !== undefined) return [j, i];\n    seen.set(nums[i]!, i);\n  }\n  return [];\n}\n${F}`,
    options: JS,
    expect: {
      rule: "fence_only",
      language: "javascript",
      typescript: true,
      entry: "twoSum",
    },
    reason: ["TypeScript"],
  },
  {
    name: "Windows newlines",
    reply: `Answer:\r\n${F}python\r\n${
      PY_SOL.replaceAll("\n", "\r\n")
    }${F}\r\n`,
    options: PY,
    expect: { rule: "fence_only", code: PY_SOL },
  },
  {
    name: "backticks inside a string do not close the fence",
    reply:
      `${F}javascript\nfunction twoSum(nums, target) {\n  const fence = "${F}";\n  const t = \`a ${F} b\`;\n  return [fence.length, t.length];\n}\n${F}`,
    options: JS,
    expect: { rule: "fence_only", language: "javascript" },
    has: ['const fence = "```";', "return [fence.length, t.length];"],
  },
  {
    name: "an empty fence and nothing else",
    reply: `Here is the code:\n${F}python\n${F}`,
    options: PY,
    expect: { rule: "none", code: null, candidates: 0 },
    reason: ["empty"],
  },
  {
    name: "only prose",
    reply:
      "To solve this, iterate over the array and keep a hash map of the values you have seen so far.",
    options: PY,
    expect: { rule: "none", code: null, entry: null },
    reason: ["prose only"],
  },
  {
    name: "unclosed think block with the code inside it",
    reply:
      `<think>\nI will use a dictionary.\n${F}python\n${PY_SOL}${F}\nNow let me double check the`,
    options: PY,
    expect: { rule: "unclosed_think", code: PY_SOL },
    reason: ["unclosed <think>"],
  },
  {
    name: "unclosed think after a final answer is ignored",
    reply:
      `${F}python\n${PY_SOL}${F}\n<think>\n${F}python\ndef two_sum(a, b):\n    return None\n${F}`,
    options: PY,
    expect: { rule: "fence_only", code: PY_SOL },
  },
  {
    name: "closing think tag without an opening one (stripped by the server)",
    reply:
      `draft:\ndef two_sum(a, b):\n    return None\n</think>\n\n${F}py\n${PY_SOL}${F}`,
    options: PY,
    expect: { rule: "fence_only", code: PY_SOL },
  },
  {
    name: "two versions: the last definition wins",
    reply:
      `First attempt:\n${F}python\ndef two_sum(nums, target):\n    return []\n${F}\nImproved:\n${F}python\n${PY_SOL}${F}`,
    options: PY,
    expect: { rule: "fence_entry", code: PY_SOL, candidates: 2 },
    reason: ["2 blocks define two_sum; took the last"],
  },
  {
    name: "helper function beside the entry",
    reply: `${F}python\ndef _key(x):\n    return x\n\n${PY_SOL}${F}`,
    options: PY,
    expect: { rule: "fence_only", entry: "two_sum" },
    has: ["def _key(x):"],
  },
  {
    name: "two functions, neither the entry",
    reply:
      `${F}python\ndef helper(x):\n    return x\n\ndef solve(nums, target):\n    return helper([])\n${F}`,
    options: PY,
    expect: { rule: "no_entry", entry: "two_sum", language: "python" },
    reason: ["2 functions (helper, solve)"],
  },
  {
    name: "indented fence inside a Markdown list is dedented",
    reply:
      `1. The code:\n\n   ${F}python\n   def two_sum(nums, target):\n       return []\n   ${F}`,
    options: PY,
    expect: {
      rule: "fence_only",
      code: "def two_sum(nums, target):\n    return []\n",
    },
  },
  {
    name: "a shell block beside the code is dropped",
    reply: `${F}bash\npython3 solution.py\n${F}\n${F}python\n${PY_SOL}${F}`,
    options: PY,
    expect: { rule: "fence_entry", code: PY_SOL },
  },
  {
    name: "javascript with a syntax error still counts as an attempt",
    reply:
      `${F}javascript\nfunction twoSum(nums, target) {\n  return [;\n}\n${F}`,
    options: JS,
    expect: { rule: "fence_only", language: "javascript", entry: "twoSum" },
    reason: ["parser rejects"],
  },
  {
    name: "a Java reply is unusable",
    reply:
      `${F}java\nclass Solution {\n    public int[] twoSum(int[] nums, int target) {\n        return new int[]{0, 1};\n    }\n}\n${F}`,
    options: JS,
    expect: { rule: "none", code: null },
    reason: ["no Python or JavaScript function"],
  },
  {
    name: "a Python class with the entry as a method (LeetCode)",
    reply:
      `${F}python\nclass Solution:\n    def twoSum(self, nums, target):\n        return self._go(nums)\n    def _go(self, nums):\n        return []\n${F}`,
    options: PY,
    expect: { rule: "class_method", language: "python", entry: "two_sum" },
    has: [
      "def two_sum(*args, **kwargs):\n    return Solution().twoSum(*args, **kwargs)",
    ],
    reason: ["class Solution's one public method twoSum"],
  },
  {
    name: "a Python class with two public methods matching nothing",
    reply:
      `${F}python\nclass Solution:\n    def solve(self, nums):\n        return []\n    def other(self):\n        return 1\n${F}`,
    options: PY,
    expect: { rule: "no_entry", language: "python", entry: "two_sum" },
    reason: ["only classes"],
  },
  {
    name: "a JavaScript class with the entry as a method",
    reply:
      `${F}javascript\nclass Solution {\n  twoSum(nums, target) {\n    return [];\n  }\n}\n${F}`,
    options: JS,
    expect: { rule: "class_method", language: "javascript", entry: "twoSum" },
    has: [
      "function twoSum(...args) {\n  return new Solution().twoSum(...args);\n}",
    ],
  },
  {
    name: "a four-backtick fence holding a three-backtick line",
    reply: `${
      "`".repeat(4)
    }python\ndef two_sum(nums, target):\n    doc = """\n${F}\n"""\n    return []\n${
      "`".repeat(4)
    }`,
    options: PY,
    expect: { rule: "fence_only", entry: "two_sum" },
    has: ["return []"],
  },
  {
    name: "Chinese prose around a fence",
    reply: `这是解法：\n${F}python\n${PY_SOL}${F}\n时间复杂度为 O(n)。`,
    options: PY,
    expect: { rule: "fence_only", code: PY_SOL },
  },
  // Top-level example and test code beside the entry is dropped; the
  // reason names each statement with its lines in the block's code.
  {
    name: "python __main__ block reading input() is dropped",
    reply:
      `Here's an O(n) solution with a hash map:\n\n${F}python\n${PY_SOL}\nif __name__ == "__main__":\n    n = int(input())\n    nums = list(map(int, input().split()))\n    print(two_sum(nums, n))\n${F}\n\nIt reads the target and the numbers from standard input.`,
    options: PY,
    expect: { rule: "fence_only", code: PY_SOL, entry: "two_sum" },
    reason: ["dropped top-level example code: __main__ block (lines 9–12)"],
  },
  {
    name: "python single-quoted __main__ guard without spaces is dropped",
    reply:
      `${F}python\n${PY_SOL}\nif __name__=='__main__':\n    print(two_sum([2, 7, 11, 15], 9))\n${F}`,
    options: PY,
    expect: { rule: "fence_only", code: PY_SOL },
    reason: ["__main__ block (lines 9–10)"],
  },
  {
    name: "python top-level example print is dropped with its comment",
    reply:
      `Sure! Here is the function:\n\n${F}python\n${PY_SOL}\n# Example usage\nprint(two_sum([2, 7, 11, 15], 9))  # Output: [0, 1]\n${F}`,
    options: PY,
    expect: { rule: "fence_only", code: PY_SOL },
    reason: ["dropped top-level example code: print call (line 10)"],
  },
  {
    name: "python wrong example asserts are dropped",
    reply:
      `${F}python\n${PY_SOL}\nassert two_sum([2, 7, 11, 15], 9) == [1, 0]  # quick check\nassert two_sum([3, 3], 6) == [0, 1]\n${F}`,
    options: PY,
    expect: { rule: "fence_only", code: PY_SOL },
    reason: [
      "dropped top-level example code: assert statement (line 9), assert statement (line 10)",
    ],
  },
  {
    name: "python top-level reads of input() and their uses are dropped",
    reply:
      `${F}python\nimport sys\n\n${PY_SOL}\nn = int(input())\nnums = list(map(int, input().split()))\nans = two_sum(nums, n)\nsys.stdout.write(" ".join(map(str, ans)))\n${F}`,
    options: PY,
    expect: { rule: "fence_only", code: `import sys\n\n${PY_SOL}` },
    reason: [
      "stdin read (line 11), stdin read (line 12), assignment from two_sum() (line 13), print call (line 14)",
    ],
  },
  {
    name: "python sys.stdin parsing is dropped with the names it binds",
    reply:
      `${F}python\nimport sys\n\n${PY_SOL}\ndata = sys.stdin.read().split()\ntarget = int(data[0])\nnums = [int(x) for x in data[1:]]\nres = two_sum(nums, target)\n${F}`,
    options: PY,
    expect: { rule: "fence_only", code: `import sys\n\n${PY_SOL}` },
    reason: [
      "stdin read (line 11), use of data from dropped code (line 12), use of data from dropped code (line 13), assignment from two_sum() (line 14)",
    ],
  },
  {
    name: "python test loop is dropped, its data kept",
    reply:
      `${F}python\n${PY_SOL}\ntests = [\n    (([2, 7, 11, 15], 9), [0, 1]),\n    (([3, 2, 4], 6), [1, 2]),\n]\nfor args, want in tests:\n    got = two_sum(*args)\n    assert got == want, f"{args}: {got} != {want}"\nprint("all tests passed")\n${F}`,
    options: PY,
    expect: {
      rule: "fence_only",
      code:
        `${PY_SOL}\ntests = [\n    (([2, 7, 11, 15], 9), [0, 1]),\n    (([3, 2, 4], 6), [1, 2]),\n]\n`,
    },
    reason: [
      "dropped top-level example code: test loop (lines 13–15), print call (line 16)",
    ],
  },
  {
    name: "python main() call is dropped, the main function kept",
    reply:
      `${F}python\n${PY_SOL}\ndef main():\n    nums = [2, 7, 11, 15]\n    print(two_sum(nums, 9))\n\n\nmain()\n${F}`,
    options: PY,
    expect: {
      rule: "fence_only",
      code:
        `${PY_SOL}\ndef main():\n    nums = [2, 7, 11, 15]\n    print(two_sum(nums, 9))\n`,
    },
    reason: ["dropped top-level example code: call of main() (line 14)"],
  },
  {
    name: "python unittest classes stay, the runner call goes",
    reply:
      `${F}python\nimport unittest\n\n${PY_SOL}\nclass TestTwoSum(unittest.TestCase):\n    def test_basic(self):\n        self.assertEqual(two_sum([2, 7], 9), [0, 1])\n\n\nunittest.main()\n${F}`,
    options: PY,
    expect: {
      rule: "fence_only",
      code:
        `import unittest\n\n${PY_SOL}\nclass TestTwoSum(unittest.TestCase):\n    def test_basic(self):\n        self.assertEqual(two_sum([2, 7], 9), [0, 1])\n`,
    },
    reason: ["unittest.main() call (line 16)"],
  },
  {
    name: "python test harness given the entry is dropped, its definition kept",
    reply:
      `${F}python\n${PY_SOL}\ndef check(candidate):\n    assert candidate([2, 7, 11, 15], 9) == [0, 1]\n    assert candidate([3, 3], 6) == [1, 0]\n\n\ncheck(two_sum)\n${F}`,
    options: PY,
    expect: {
      rule: "fence_only",
      code:
        `${PY_SOL}\ndef check(candidate):\n    assert candidate([2, 7, 11, 15], 9) == [0, 1]\n    assert candidate([3, 3], 6) == [1, 0]\n`,
    },
    reason: ["dropped top-level example code: call of check() (line 14)"],
  },
  {
    name: "python code the scanner cannot read is kept as is",
    reply:
      `${F}python\ndef two_sum(nums, target):\n    return [nums.index(target - nums[0]), 1\n\nprint(two_sum([2, 7], 9))\n${F}`,
    options: PY,
    expect: {
      rule: "fence_only",
      code:
        "def two_sum(nums, target):\n    return [nums.index(target - nums[0]), 1\n\nprint(two_sum([2, 7], 9))\n",
    },
    reason: [
      "cannot be scanned (an unclosed `[` opened on line 2): kept as is",
    ],
  },
  {
    name: "javascript console.log examples are dropped",
    reply:
      `${F}javascript\n${JS_SOL}\n// Example:\nconsole.log(twoSum([2, 7, 11, 15], 9)); // [0, 1]\nconsole.log(twoSum([3, 2, 4], 6)); // [1, 2]\n${F}`,
    options: JS,
    expect: { rule: "fence_only", code: JS_SOL, language: "javascript" },
    reason: [
      "dropped top-level example code: console.log call (line 11), console.log call (line 12)",
    ],
  },
  {
    name: "javascript require.main === module block reading stdin is dropped",
    reply:
      `${F}js\n${JS_SOL}\nif (require.main === module) {\n  const input = require("fs").readFileSync(0, "utf8").trim().split("\\n");\n  const nums = input[0].split(" ").map(Number);\n  console.log(twoSum(nums, Number(input[1])).join(" "));\n}\n${F}`,
    options: JS,
    expect: { rule: "fence_only", code: JS_SOL },
    reason: [
      "dropped top-level example code: require.main block (lines 10–14)",
    ],
  },
  {
    name: "javascript module.exports and exports.x are dropped",
    reply:
      `${F}javascript\n${JS_SOL}\nmodule.exports = { twoSum };\nexports.twoSum = twoSum;\n${F}`,
    options: JS,
    expect: { rule: "fence_only", code: JS_SOL },
    reason: [
      "module.exports assignment (line 10), exports assignment (line 11)",
    ],
  },
  {
    name:
      "javascript readline input handling and a now unused require are dropped",
    reply:
      `${F}javascript\nconst readline = require("readline");\n\n${JS_SOL}\nconst rl = readline.createInterface({ input: process.stdin });\nconst lines = [];\nrl.on("line", (line) => lines.push(line));\nrl.on("close", () => {\n  console.log(twoSum(lines[0].split(" ").map(Number), Number(lines[1])));\n});\n${F}`,
    options: JS,
    expect: { rule: "fence_only", code: `${JS_SOL}\nconst lines = [];\n` },
    reason: [
      "stdin read (line 1), stdin read (line 12), use of rl from dropped code (line 14), rl.on call with test code (lines 15–17)",
    ],
  },
  {
    name: "javascript assert module checks are dropped with their require",
    reply:
      `${F}javascript\nconst assert = require("assert");\n\n${JS_SOL}\nassert.deepStrictEqual(twoSum([2, 7, 11, 15], 9), [1, 0]);\n${F}`,
    options: JS,
    expect: { rule: "fence_only", code: JS_SOL },
    reason: [
      'require("assert") used only by dropped code (line 1), assert call (line 12)',
    ],
  },
  {
    name: "typescript example call and log are dropped, the types kept",
    reply:
      `${F}typescript\ntype Pair = [number, number];\n\nexport function twoSum(nums: number[], target: number): Pair | [] {\n  const seen = new Map<number, number>();\n  for (let i = 0; i < nums.length; i++) {\n    const j = seen.get(target - nums[i]!);\n    if (j !== undefined) return [j, i];\n    seen.set(nums[i]!, i);\n  }\n  return [];\n}\n\nconst result: Pair | [] = twoSum([2, 7, 11, 15], 9);\nconsole.log(\`Indices: \${result}\`);\nif (import.meta.main) {\n  twoSum([3, 3], 6);\n}\n${F}`,
    options: JS,
    expect: {
      rule: "fence_only",
      typescript: true,
      code:
        "type Pair = [number, number];\n\nexport function twoSum(nums: number[], target: number): Pair | [] {\n  const seen = new Map<number, number>();\n  for (let i = 0; i < nums.length; i++) {\n    const j = seen.get(target - nums[i]!);\n    if (j !== undefined) return [j, i];\n    seen.set(nums[i]!, i);\n  }\n  return [];\n}\n",
    },
    reason: [
      "dropped top-level example code: assignment from twoSum() (line 13), console.log call (line 14), import.meta.main block (lines 15–17); TypeScript",
    ],
  },
  {
    name: "javascript test loop is dropped, a table-filling loop kept",
    reply:
      `${F}javascript\nconst MOD = 1_000_000_007n;\nconst fact = [1n];\nfor (let i = 1; i <= 20; i++) fact.push((fact[i - 1] * BigInt(i)) % MOD);\n\nfunction nChooseK(n, k) {\n  return Number(fact[n] / (fact[k] * fact[n - k]));\n}\n\nfor (const [n, k] of [[5, 2], [6, 3]]) {\n  console.log(n, k, nChooseK(n, k));\n}\n${F}`,
    options: { language: "javascript", entry: "nChooseK" },
    expect: {
      rule: "fence_only",
      code:
        "const MOD = 1_000_000_007n;\nconst fact = [1n];\nfor (let i = 1; i <= 20; i++) fact.push((fact[i - 1] * BigInt(i)) % MOD);\n\nfunction nChooseK(n, k) {\n  return Number(fact[n] / (fact[k] * fact[n - k]));\n}\n",
    },
    reason: ["dropped top-level example code: test loop (lines 9–11)"],
  },
  // Counter-cases: what the entry may depend on stays, byte for byte.
  {
    name: "python sys.setrecursionlimit is kept",
    reply:
      `${F}python\nimport sys\nsys.setrecursionlimit(10 ** 6)\n\n\ndef depth(tree, node=0):\n    kids = [i for i, p in enumerate(tree) if p == node]\n    return 1 + max((depth(tree, k) for k in kids), default=0)\n${F}`,
    options: { language: "python", entry: "depth" },
    expect: {
      rule: "fence_only",
      code:
        "import sys\nsys.setrecursionlimit(10 ** 6)\n\n\ndef depth(tree, node=0):\n    kids = [i for i, p in enumerate(tree) if p == node]\n    return 1 + max((depth(tree, k) for k in kids), default=0)\n",
    },
    reasonLacks: ["dropped top-level"],
  },
  {
    name: "python docstring holding print( and assert at column 0 is kept",
    reply:
      `${F}python\ndef two_sum(nums, target):\n    """Indices of the two numbers that add up to target.\n\nExample:\nprint(two_sum([2, 7], 9))\nassert two_sum([3, 3], 6) == [0, 1]\n"""\n    seen = {}\n    for i, x in enumerate(nums):\n        if target - x in seen:\n            return [seen[target - x], i]\n        seen[x] = i\n    return []\n${F}`,
    options: PY,
    expect: {
      rule: "fence_only",
      code:
        'def two_sum(nums, target):\n    """Indices of the two numbers that add up to target.\n\nExample:\nprint(two_sum([2, 7], 9))\nassert two_sum([3, 3], 6) == [0, 1]\n"""\n    seen = {}\n    for i, x in enumerate(nums):\n        if target - x in seen:\n            return [seen[target - x], i]\n        seen[x] = i\n    return []\n',
    },
    reasonLacks: ["dropped top-level"],
  },
  {
    name: "python decorator @lru_cache(None) stays with its function",
    reply:
      `${F}python\nfrom functools import lru_cache\n\n\n@lru_cache(None)\ndef climb_stairs(n):\n    if n <= 1:\n        return 1\n    return climb_stairs(n - 1) + climb_stairs(n - 2)\n${F}`,
    options: { language: "python", entry: "climb_stairs" },
    expect: {
      rule: "fence_only",
      code:
        "from functools import lru_cache\n\n\n@lru_cache(None)\ndef climb_stairs(n):\n    if n <= 1:\n        return 1\n    return climb_stairs(n - 1) + climb_stairs(n - 2)\n",
    },
    reasonLacks: ["dropped top-level"],
  },
  {
    name: "python table-filling loop is kept, even with a print in it",
    reply:
      `${F}python\nMOD = 10**9 + 7\nMAX_N = 1000\nfact = [1] * (MAX_N + 1)\nfor i in range(1, MAX_N + 1):\n    fact[i] = fact[i - 1] * i % MOD\nif MAX_N > 10**6:\n    print("big table")\n    fact.append(0)\n\n\ndef n_choose_k(n, k):\n    return fact[n] * pow(fact[k] * fact[n - k], MOD - 2, MOD) % MOD\n${F}`,
    options: { language: "python", entry: "n_choose_k" },
    expect: {
      rule: "fence_only",
      code:
        'MOD = 10**9 + 7\nMAX_N = 1000\nfact = [1] * (MAX_N + 1)\nfor i in range(1, MAX_N + 1):\n    fact[i] = fact[i - 1] * i % MOD\nif MAX_N > 10**6:\n    print("big table")\n    fact.append(0)\n\n\ndef n_choose_k(n, k):\n    return fact[n] * pow(fact[k] * fact[n - k], MOD - 2, MOD) % MOD\n',
    },
    reasonLacks: ["dropped top-level"],
  },
  {
    name: "python constants, a memo and a setup call are kept",
    reply:
      `${F}python\nINF = float("inf")\nmemo = {}\nPRIMES = []\n\n\ndef _sieve(limit):\n    flags = [True] * (limit + 1)\n    for p in range(2, limit + 1):\n        if flags[p]:\n            PRIMES.append(p)\n            for q in range(p * p, limit + 1, p):\n                flags[q] = False\n\n\n_sieve(100)\n\n\ndef nearest_prime(n):\n    best = min(PRIMES, key=lambda p: abs(p - n), default=INF)\n    memo[n] = best\n    return best\n${F}`,
    options: { language: "python", entry: "nearest_prime" },
    expect: {
      rule: "fence_only",
      code:
        'INF = float("inf")\nmemo = {}\nPRIMES = []\n\n\ndef _sieve(limit):\n    flags = [True] * (limit + 1)\n    for p in range(2, limit + 1):\n        if flags[p]:\n            PRIMES.append(p)\n            for q in range(p * p, limit + 1, p):\n                flags[q] = False\n\n\n_sieve(100)\n\n\ndef nearest_prime(n):\n    best = min(PRIMES, key=lambda p: abs(p - n), default=INF)\n    memo[n] = best\n    return best\n',
    },
    reasonLacks: ["dropped top-level"],
  },
  {
    name: "javascript exports, constants, helpers and classes are kept",
    reply:
      `${F}javascript\nconst LIMIT = 1e9;\n\nclass MinHeap {\n  constructor() {\n    this.items = [];\n  }\n}\n\nfunction helper(x) {\n  return Math.min(x, LIMIT);\n}\n\nexport function twoSum(nums, target) {\n  return [helper(0), helper(1)];\n}\n\nexport default twoSum;\n${F}`,
    options: JS,
    expect: {
      rule: "fence_only",
      code:
        "const LIMIT = 1e9;\n\nclass MinHeap {\n  constructor() {\n    this.items = [];\n  }\n}\n\nfunction helper(x) {\n  return Math.min(x, LIMIT);\n}\n\nexport function twoSum(nums, target) {\n  return [helper(0), helper(1)];\n}\n\nexport default twoSum;\n",
    },
    reasonLacks: ["dropped top-level"],
  },
];

for (const c of CASES) {
  Deno.test(`extractCode() handles: ${c.name}`, async () => {
    const x = await extractCode(c.reply, c.options);
    for (const [key, value] of Object.entries(c.expect)) {
      assert.deepEqual(
        x[key as keyof CodeExtraction],
        value,
        `${key} (rule ${x.rule}; reason: ${x.reason})`,
      );
    }
    for (const part of c.reason ?? []) {
      assert.ok(x.reason.includes(part), `reason "${x.reason}" lacks ${part}`);
    }
    for (const part of c.reasonLacks ?? []) {
      assert.ok(!x.reason.includes(part), `reason "${x.reason}" holds ${part}`);
    }
    for (const part of c.has ?? []) {
      assert.ok(x.code?.includes(part), `code lacks ${part}: ${x.code}`);
    }
    for (const part of c.lacks ?? []) {
      assert.ok(!x.code?.includes(part), `code holds ${part}`);
    }
    if (x.code !== null && x.span !== null) {
      const raw = c.reply.slice(x.span[0], x.span[1]).replaceAll("\r\n", "\n");
      const firstLine = x.code.split("\n")[0]!.trim();
      assert.ok(raw.includes(firstLine), "span covers the code");
    }
  });
}

Deno.test("extractCode() never throws on odd input", async () => {
  for (
    const reply of [
      "",
      F,
      `${F}${F}${F}`,
      "<think>",
      "</think>",
      "\u0000\uffff",
      "def (",
      `${F}python\ndef f(\n`,
    ]
  ) {
    const x = await extractCode(reply, PY);
    assert.equal(typeof x.rule, "string");
    assert.equal(typeof x.reason, "string");
  }
});

Deno.test("extractCode() finds the entry of every bank reference and naive solution", async () => {
  const { loadBank } = await import("../../../lib/suites/code/bank/mod.ts");
  const problems = await loadBank();
  assert.ok(problems.length >= 40);
  let checked = 0;
  for (const p of problems) {
    for (const language of ["python", "javascript"] as const) {
      const sources = [p.reference[language], p.naive[language]];
      for (const source of sources) {
        if (source === undefined) continue;
        const reply = `Here is my answer.\n${F}${language}\n${source}${F}\n`;
        const x = await extractCode(reply, {
          language,
          entry: p.entry[language],
        });
        assert.equal(x.language, language, `${p.id} ${language}: ${x.reason}`);
        assert.equal(x.entry, p.entry[language], `${p.id}: ${x.reason}`);
        assert.equal(x.rule, "fence_only", `${p.id}: ${x.reason}`);
        assert.equal(x.code?.trim(), source.trim());
        checked++;
      }
    }
  }
  assert.ok(checked >= 2 * problems.length);
});

/**
 * Runs a reply's extracted code and the whole block it came from in the
 * real sandbox: the block crashes or stalls on its example code, the
 * extraction returns the right value. (A sandbox of its own that keeps the
 * process alive while it works: under `deno test`, the default `runCode`
 * sandbox's unref'd workers let the test end before a Python worker is up.)
 */
async function runBoth(
  reply: string,
  options: ExtractCodeOptions,
  args: unknown[],
): Promise<{ raw: string; extracted: { status: string; value: unknown } }> {
  const sandbox = createSandbox({ warm: 0, concurrency: 2, unref: false });
  try {
    return await runBothIn(sandbox, reply, options, args);
  } finally {
    await sandbox.close();
  }
}

async function runBothIn(
  sandbox: ReturnType<typeof createSandbox>,
  reply: string,
  options: ExtractCodeOptions,
  args: unknown[],
): Promise<{ raw: string; extracted: { status: string; value: unknown } }> {
  const x = await extractCode(reply, options);
  assert.ok(x.code !== null && x.span !== null && x.language !== null);
  assert.match(x.reason, /dropped top-level example code/);
  const language = x.typescript ? "typescript" : x.language;
  const block = reply.slice(x.span[0], x.span[1]);
  const whole = await sandbox.runCode({
    language,
    code: block,
    entry: x.entry!,
    calls: [args],
    timeoutMs: 5_000,
  });
  const kept = await sandbox.runCode({
    language,
    code: x.code,
    entry: x.entry!,
    calls: [args],
    timeoutMs: 5_000,
  });
  const first = kept.results[0];
  return {
    raw: whole.status,
    extracted: { status: kept.status, value: first?.ok ? first.value : first },
  };
}

Deno.test({
  name:
    "extractCode() drops a wrong example assert, reads of stdin and a __main__ block: the python entry runs in the sandbox",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const reply =
      `Here is an O(n) solution:\n\n${F}python\n${PY_SOL}\nassert two_sum([2, 7, 11, 15], 9) == [1, 0]\ntarget = int(input())\n\nif __name__ == "__main__":\n    nums = list(map(int, input().split()))\n    print(two_sum(nums, target))\n${F}\n`;
    const { raw, extracted } = await runBoth(reply, PY, [[3, 2, 4], 6]);
    assert.ok(raw === "crash" || raw === "timeout", `whole block: ${raw}`);
    assert.deepEqual(extracted, { status: "ok", value: [1, 2] });
  },
});

Deno.test({
  name:
    "extractCode() drops console.log examples and module.exports: the javascript entry runs in the sandbox",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const reply =
      `${F}javascript\n${JS_SOL}\n// Example usage\nconsole.log(twoSum([2, 7, 11, 15], 9)); // [0, 1]\n\nmodule.exports = { twoSum };\n${F}`;
    const { raw, extracted } = await runBoth(reply, JS, [[3, 2, 4], 6]);
    assert.ok(raw === "crash" || raw === "timeout", `whole block: ${raw}`);
    assert.deepEqual(extracted, { status: "ok", value: [1, 2] });
  },
});
