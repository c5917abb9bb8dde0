import assert from "node:assert/strict";
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
    name: "defining block with top-level test code is kept",
    reply:
      `${F}python\n${PY_SOL}\nif __name__ == "__main__":\n    print(two_sum([2, 7], 9))\n${F}`,
    options: PY,
    expect: { rule: "fence_only" },
    has: ["if __name__"],
    reason: ["kept top-level test code (__main__)"],
  },
  {
    name: "javascript block with console.log kept",
    reply: `${F}js\n${JS_SOL}console.log(twoSum([2, 7], 9));\n${F}`,
    options: JS,
    expect: { rule: "fence_only" },
    has: ["console.log"],
    reason: ["console"],
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
    name: "a Python class with the entry as a method",
    reply:
      `${F}python\nclass Solution:\n    def two_sum(self, nums, target):\n        return []\n${F}`,
    options: PY,
    expect: { rule: "no_entry", language: "python", entry: "two_sum" },
    reason: ["only classes"],
  },
  {
    name: "a JavaScript class with the entry as a method",
    reply:
      `${F}javascript\nclass Solution {\n  twoSum(nums, target) {\n    return [];\n  }\n}\n${F}`,
    options: JS,
    expect: { rule: "no_entry", language: "javascript", entry: "twoSum" },
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
];

for (const c of CASES) {
  Deno.test(`extractCode() handles: ${c.name}`, () => {
    const x = extractCode(c.reply, c.options);
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

Deno.test("extractCode() never throws on odd input", () => {
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
    const x = extractCode(reply, PY);
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
        const x = extractCode(reply, { language, entry: p.entry[language] });
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
