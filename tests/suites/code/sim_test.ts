/**
 * The sim's code-writing skill, driven through `simChat` with the code
 * suite's own templates: determinism per seed, replies that read like a
 * model's code reply in each profile's style, usage examples that
 * extraction drops, replies with the entry function in the asked
 * language, weaker profiles erring more, and hard problems passing less
 * often than easy ones when the extracted code is run.
 */
import assert from "node:assert/strict";
import { simChat } from "../../../lib/providers/sim/mod.ts";
import {
  closeSandbox,
  loadHumanEval,
  runCode,
} from "../../../lib/sandbox/mod.ts";
import {
  type CodeProblem,
  compareOutput,
  loadBank,
} from "../../../lib/suites/code/bank/mod.ts";
import { extractCode } from "../../../lib/suites/code/extract.ts";
import type { CodePayload } from "../../../lib/suites/code/questions.ts";
import { codeSkill } from "../../../lib/suites/code/sim/mod.ts";
import { CODE_TEMPLATES } from "../../../lib/suites/code/templates.ts";
import type { Question } from "../../../lib/types.ts";

type Lang = "python" | "javascript";

const bank = await loadBank();
const byDifficulty = (d: string) => bank.filter((p) => p.difficulty === d);

function question(p: CodeProblem, language: Lang): Question<CodePayload> {
  return {
    id: `code/bank/${p.id}/${language}`,
    suite: "code",
    text: p.statement.en,
    answer: { kind: "text", value: "[]" },
    dims: { complexity: p.complexity, difficulty: p.difficulty, language },
    payload: {
      problemId: p.id,
      source: "bank",
      language,
      entry: p.entry[language],
      signature: p.signature[language],
      statement: p.statement,
      inputSeed: 1,
    },
  };
}

function ask(
  p: CodeProblem,
  language: Lang,
  model: string,
  seed: number,
  template = "direct",
) {
  const messages = CODE_TEMPLATES[template]!.render(question(p, language));
  return simChat({ model, messages, seed, temperature: 0.7 }, [codeSkill]);
}

function contentOf(reply: ReturnType<typeof simChat>): string {
  const choices = reply.response.choices as {
    message: { content: string | null };
  }[];
  return choices[0]?.message.content ?? "";
}

/** The first fenced block after any <think> block: [tag, code]. */
function block(content: string): [string, string] | null {
  const visible = content.replace(/^<think>[\s\S]*?<\/think>/, "");
  const m = /```(\w*)\n([\s\S]*?)\n```/.exec(visible);
  return m ? [m[1]!, m[2]!] : null;
}

/** What the suite would run: the extracted code and its language. */
async function extracted(
  content: string,
  language: Lang,
  entry: string,
): Promise<{ language: string | null; code: string; reason: string }> {
  const x = await extractCode(content, { language, entry });
  return {
    language: x.language,
    code: (x.code ?? "").trimEnd(),
    reason: x.reason,
  };
}

const USAGE =
  /\nif __name__ == "__main__":\n|\nconsole\.log\(|\n# Example usage\n/;

function reference(p: CodeProblem, language: Lang): string {
  return p.reference[language]
    .replace(/^\/\/ deno-lint-ignore-file[^\n]*\n/, "").trimEnd();
}

Deno.test("codeSkill gives the same reply for the same seed and varies across seeds", () => {
  const p = byDifficulty("medium")[0]!;
  const replies = new Set<string>();
  for (let seed = 0; seed < 12; seed++) {
    const a = ask(p, "python", "sim-weak", seed);
    assert.deepEqual(ask(p, "python", "sim-weak", seed), a);
    replies.add(contentOf(a));
  }
  assert.ok(replies.size > 1, "different seeds should give different samples");
});

Deno.test("codeSkill: sim-strong writes the entry function in the asked language on easy problems", async () => {
  for (const language of ["python", "javascript"] as const) {
    let good = 0, total = 0;
    for (const p of byDifficulty("easy")) {
      for (const seed of [0, 1]) {
        total++;
        const x = await extracted(
          contentOf(ask(p, language, "sim-strong", seed)),
          language,
          p.entry[language],
        );
        const header = language === "python"
          ? `def ${p.entry.python}(`
          : `function ${p.entry.javascript}(`;
        if (x.language === language && x.code.includes(header)) good++;
      }
    }
    assert.ok(good / total >= 0.9, `${language}: ${good}/${total}`);
  }
});

Deno.test("codeSkill: replies keep each profile's style", () => {
  const p = byDifficulty("easy")[0]!;
  const think = contentOf(ask(p, "python", "sim-think", 4));
  assert.match(think, /^<think>\n[\s\S]*\n<\/think>\n\n/);
  const reasoner = ask(p, "javascript", "sim-reasoner", 4).response
    .choices as { message: Record<string, unknown> }[];
  assert.equal(typeof reasoner[0]!.message.reasoning_content, "string");
  const zh = CODE_TEMPLATES.zh!.render(question(p, "python"));
  const zhReply = simChat({ model: "sim-average", messages: zh, seed: 1 }, [
    codeSkill,
  ]);
  assert.match(contentOf(zhReply), /答案|```python|思路/);
  const plan = contentOf(ask(p, "python", "sim-strong", 2, "plan"));
  assert.match(plan, /Time complexity: O\(/);
  const chatty = contentOf(ask(p, "javascript", "sim-chatty", 1));
  assert.match(chatty, /^(Sure|Great question|Of course|Absolutely)!/);
});

Deno.test("codeSkill: code replies read like a model's, never as an answer sentence", () => {
  const leads = new Set<string>();
  for (
    const model of ["sim-strong", "sim-chatty", "sim-think", "sim-reasoner"]
  ) {
    for (const template of ["direct", "zh", "plan"]) {
      for (const [i, p] of byDifficulty("easy").slice(0, 6).entries()) {
        const language: Lang = i % 2 === 0 ? "python" : "javascript";
        const content = contentOf(ask(p, language, model, i, template));
        const visible = content.replace(/^<think>[\s\S]*?<\/think>\n\n/, "");
        assert.doesNotMatch(visible, /The answer is|答案是|\*\*/, visible);
        const fence = visible.indexOf("```");
        if (fence < 0) continue; // prose without code
        assert.ok(
          visible.trimEnd().endsWith("```") || /```\n\n\S[^\n]*$/.test(visible),
          visible,
        );
        const lead = visible.slice(0, fence).trim();
        if (lead !== "") leads.add(lead);
        if (template === "zh" && lead !== "" && model !== "sim-think") {
          assert.match(lead, /[\u4e00-\u9fff]/, lead);
        }
      }
    }
  }
  assert.ok(leads.size >= 4, [...leads].join(" | "));
});

Deno.test("codeSkill: about 15–25 % of code replies carry a usage example, and extraction drops it", async () => {
  const share: Record<string, number> = {};
  for (const model of ["sim-strong", "sim-chatty"]) {
    let code = 0, examples = 0;
    for (const p of bank) {
      for (const language of ["python", "javascript"] as const) {
        for (const seed of [0, 1, 2, 3]) {
          const content = contentOf(ask(p, language, model, seed));
          const b = block(content);
          if (b === null) continue;
          code++;
          if (!USAGE.test(`\n${b[1]}`)) continue;
          examples++;
          const x = await extracted(content, language, p.entry[language]);
          // A syntax error (one of the sim's slips) is kept as is.
          if (/cannot be scanned|parser rejects/.test(x.reason)) continue;
          assert.match(x.reason, /dropped top-level example code: /, x.reason);
          assert.doesNotMatch(`\n${x.code}`, USAGE, x.code);
          if (b[1].startsWith(reference(p, language))) {
            assert.equal(x.code, reference(p, language), x.reason);
          }
        }
      }
    }
    share[model] = examples / code;
  }
  assert.ok(
    share["sim-strong"]! >= 0.1 && share["sim-strong"]! <= 0.22,
    JSON.stringify(share),
  );
  assert.ok(
    share["sim-chatty"]! >= 0.17 && share["sim-chatty"]! <= 0.32,
    JSON.stringify(share),
  );
  assert.ok(share["sim-chatty"]! > share["sim-strong"]!, JSON.stringify(share));
});

Deno.test("codeSkill: sim-weak writes non-reference code more often than sim-strong", async () => {
  const problems = bank.filter((_, i) => i % 3 === 0);
  const misses = async (model: string) => {
    let n = 0;
    for (const p of problems) {
      for (const seed of [0, 1, 2]) {
        const x = await extracted(
          contentOf(ask(p, "python", model, seed)),
          "python",
          p.entry.python,
        );
        if (x.code !== reference(p, "python")) n++;
      }
    }
    return n;
  };
  const strong = await misses("sim-strong"), weak = await misses("sim-weak");
  assert.ok(weak > strong + 5, `weak ${weak} vs strong ${strong}`);
});

Deno.test("codeSkill recalls HumanEval solutions by prompt and stubs unknown functions", async () => {
  const he = await loadHumanEval();
  // HumanEval/10's prompt defines the helper is_palindrome before its entry.
  const p = he.find((h) => h.entry_point === "make_palindrome")!;
  const q = question(bank[0]!, "python");
  q.payload = {
    ...q.payload!,
    problemId: p.task_id,
    source: "humaneval",
    entry: p.entry_point,
    signature: "",
    prompt: p.prompt,
  };
  let recalled = 0;
  for (let seed = 0; seed < 6; seed++) {
    const messages = CODE_TEMPLATES.direct!.render(q);
    const reply = simChat({ model: "sim-strong", messages, seed }, [codeSkill]);
    const x = await extracted(contentOf(reply), "python", p.entry_point);
    if (x.code.includes(p.canonical_solution.trimEnd())) recalled++;
  }
  assert.ok(recalled >= 5, `recalled ${recalled}/6`);
  const fence = "```";
  const unknown = simChat({
    model: "sim-strong",
    messages: [{
      role: "user",
      content:
        `Write the function in Python:\n${fence}python\ndef frobnicate(xs: list[int]) -> int:\n${fence}\nReply in one ${fence}python code block.`,
    }],
  }, [codeSkill]);
  assert.deepEqual(block(contentOf(unknown)), [
    "python",
    "def frobnicate(xs: list[int]) -> int:\n    # TODO: handle the general case\n    return None",
  ]);
});

/** Whether the reply's code passes every test of the problem (run in the sandbox). */
async function passesTests(
  p: CodeProblem,
  language: Lang,
  content: string,
  expected: unknown[],
): Promise<boolean> {
  const x = await extracted(content, language, p.entry[language]);
  if (x.language !== language || x.code === "") return false;
  if (x.code === reference(p, language)) return true;
  const r = await runCode({
    language,
    code: x.code,
    entry: p.entry[language],
    calls: p.tests.map((t) => t.args),
    timeoutMs: 5_000,
  });
  if (r.status !== "ok") return false;
  return r.results.every((c, i) =>
    c.ok &&
    compareOutput(expected[i], c.value, {
      rule: p.compare,
      args: p.tests[i]!.args,
      checker: p.checker,
    })
  );
}

Deno.test({
  name:
    "codeSkill: sim-average passes hard problems less often than easy ones when its code is run",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    try {
      const rate: Record<string, number> = {};
      for (const difficulty of ["easy", "hard"]) {
        const problems = byDifficulty(difficulty).slice(0, 8);
        let pass = 0, total = 0;
        for (const p of problems) {
          const ref = await runCode({
            language: "javascript",
            code: p.reference.javascript,
            entry: p.entry.javascript,
            calls: p.tests.map((t) => t.args),
            timeoutMs: 30_000,
          });
          assert.equal(ref.status, "ok");
          const expected = ref.results.map((c) => c.ok ? c.value : undefined);
          for (const seed of [0, 1, 2, 3]) {
            const content = contentOf(
              ask(p, "javascript", "sim-average", seed),
            );
            total++;
            if (await passesTests(p, "javascript", content, expected)) pass++;
          }
        }
        rate[difficulty] = pass / total;
      }
      assert.ok(rate.easy! > rate.hard! + 0.2, JSON.stringify(rate));
      assert.ok(rate.easy! >= 0.6, JSON.stringify(rate));
    } finally {
      await closeSandbox();
    }
  },
});
