/**
 * Writes a skill's answer the way the profile would: following (or not)
 * the prompt's format instructions, with prose, separators, working lines
 * and reasoning.
 *
 * @module
 */
import type { Instructions } from "./instructions.ts";
import { groupThousands } from "./numbers.ts";
import { pick, type Uniform } from "./rng.ts";
import type { SkillAnswer } from "./skills/types.ts";
import type { SimProfile } from "./types.ts";

/** Visible content and separate reasoning of a reply. */
export interface Rendered {
  content: string;
  /** Reasoning text (placed in a field or in <think> by the caller). */
  reasoning: string | null;
}

/** The polite non-answer when no skill matched. */
export function nonAnswer(chinese: boolean): string {
  return chinese
    ? "抱歉，我不太明白这个问题，能换一种说法吗？"
    : "I'm sorry, I'm not sure what you're asking. Could you rephrase the question?";
}

function unsure(chinese: boolean, rng: Uniform): string {
  return chinese
    ? pick(rng, ["我不确定这道题的答案。", "抱歉，这道题我没有把握。"])
    : pick(rng, [
      "I'm not sure how to solve this one.",
      "I'm not certain about the answer to this question.",
    ]);
}

function finalLine(
  ans: string,
  a: SkillAnswer,
  ins: Instructions,
  cot: boolean,
): string {
  if (ins.fewShot) return `${ins.fewShot.prefix}${ans}${ins.fewShot.suffix}`;
  if (ins.json) {
    return `{"answer": ${
      a.numeric ? ans.replace(/,/g, "") : JSON.stringify(ans)
    }}`;
  }
  if (ins.boxed) {
    return ins.bare
      ? `\\boxed{${ans}}`
      : `${ins.chinese ? "答案：" : "The answer is "}$\\boxed{${ans}}$`;
  }
  if (ins.marker) return `${ins.marker}${ans}`;
  if (cot) return `${ins.chinese ? "答案：" : "Final answer: "}${ans}`;
  if (ins.bare) return ans;
  if (a.restatement && a.numeric) return `${a.restatement} = ${ans}`;
  return ins.chinese ? `答案是 ${ans}。` : `The answer is ${ans}.`;
}

function chattyWrap(
  line: string,
  ans: string,
  a: SkillAnswer,
  ins: Instructions,
  rng: Uniform,
): string {
  const rest = a.restatement;
  if (ins.marker || ins.boxed || ins.fewShot || ins.json) {
    return `${line}${pick(rng, [" 😊", ".", "!"])}`;
  }
  if (ins.chinese) {
    return pick(rng, [
      `答案是 ${ans}。`,
      `好的！经过计算，结果是 **${ans}**。`,
      rest ? `${rest} = **${ans}**。希望对你有帮助！` : `结果是 **${ans}**。`,
    ]);
  }
  // Like some bilingual chat models, it now and then answers in Chinese.
  if (rng() < 0.1) return `答案是 ${ans}。`;
  return pick(rng, [
    `Sure! The answer is **${ans}**.`,
    rest
      ? `Great question! ${rest} = **${ans}**.`
      : `Great question! It's **${ans}**.`,
    `Let me calculate that for you: ${
      rest ?? "the result"
    } equals **${ans}**. Hope this helps!`,
    `The result is ${ans}!`,
  ]);
}

/**
 * A block answer as a reply: plain profiles open with one of the skill's
 * lead-ins 60 % of the time and add its note 35 % of the time; chatty ones
 * always open with a cheerful word (and mostly a lead-in) and close with
 * the note and a friendly line. No answer sentence around the block.
 */
function blockReply(
  body: string,
  block: NonNullable<SkillAnswer["block"]>,
  ins: Instructions,
  profile: SimProfile,
  rng: Uniform,
): string {
  const chatty = profile.chatty;
  const lead = block.leads.length > 0 && rng() < (chatty ? 0.8 : 0.6)
    ? pick(rng, block.leads)
    : null;
  const note = block.notes.length > 0 && rng() < (chatty ? 0.7 : 0.35)
    ? pick(rng, block.notes)
    : null;
  const text = body.trim();
  if (!chatty) return [lead, text, note].filter((l) => l !== null).join("\n\n");
  const opener = ins.chinese
    ? pick(rng, ["好的！", "没问题！", "当然可以！"])
    : pick(rng, ["Sure!", "Great question!", "Of course!", "Absolutely!"]);
  const closer = ins.chinese
    ? pick(rng, ["希望对你有帮助！", "如果还有问题，随时告诉我。"])
    : pick(rng, [
      "Hope this helps! 😊",
      "Let me know if you have any questions!",
      "I hope this helps!",
    ]);
  const space = ins.chinese ? "" : " ";
  return [
    lead === null ? opener : `${opener}${space}${lead}`,
    text,
    note === null ? closer : `${note}${space}${closer}`,
  ].join("\n\n");
}

/**
 * Renders a skill answer: format instructions, profile habits, working
 * lines (for CoT prompts) and reasoning (for thinking profiles). A block
 * answer (`SkillAnswer.block`) is shown as written, with the skill's
 * lead-in and note in the profile's voice, never in an answer sentence.
 */
export function renderAnswer(
  a: SkillAnswer,
  ins: Instructions,
  profile: SimProfile,
  rng: Uniform,
): Rendered {
  if (a.refusal) return { content: a.refusal, reasoning: null };
  const thinks = profile.thinking !== "none";
  const reasoning = thinks ? reasoningText(a, ins) : null;
  if (a.answer === null) {
    return { content: unsure(ins.chinese, rng), reasoning };
  }
  if (a.block !== undefined) {
    return {
      content: blockReply(a.answer, a.block, ins, profile, rng),
      reasoning,
    };
  }
  const comply = rng() < profile.compliance;
  let ans = a.answer;
  if (
    a.numeric && profile.chatty && (!(ins.noCommas || ins.bare) || !comply) &&
    rng() < 0.7
  ) {
    ans = groupThousands(ans);
  }
  const cot = ins.cot;
  const formatted = ins.marker || ins.boxed || ins.fewShot || ins.json;
  let line = finalLine(ans, a, ins, cot);
  let chattyIntro: string | null = null;
  if (!comply) {
    if (profile.chatty) {
      line = chattyWrap(line, ans, a, ins, rng);
      if (formatted) {
        chattyIntro = ins.chinese
          ? "好的！我来帮你算一下。"
          : pick(rng, ["Sure! Let me help with that.", "Great question!"]);
      }
    } else if (ins.bare) {
      line = ins.chinese ? `答案是 ${ans}` : `The answer is ${ans}.`;
    }
  } else if (
    profile.chatty && !ins.bare && !cot && !ins.marker && !ins.fewShot
  ) {
    line = chattyWrap(line, ans, a, ins, rng);
  }
  if (!cot || !a.steps.length) {
    const content = chattyIntro ? `${chattyIntro}\n\n${line}` : line;
    return { content, reasoning };
  }
  const steps = visibleSteps(a.steps);
  if (ins.fewShot) {
    // Copy the examples: no preamble, working inline when theirs is.
    const working = ins.fewShot.inline ? [`${steps.join(". ")}.`] : steps;
    const body = [...working, line].join("\n");
    return {
      content: chattyIntro ? `${chattyIntro}\n${body}` : body,
      reasoning,
    };
  }
  const intro = chattyIntro ??
    (ins.chinese
      ? "我们一步一步计算："
      : "Let's work through it step by step.");
  return { content: [intro, ...steps, line].join("\n"), reasoning };
}

/** Working shown in a CoT answer: long multiplication detail stays out. */
function visibleSteps(steps: readonly string[]): string[] {
  const plain = steps.filter((s) => !isDetail(s));
  return plain.length ? plain : [...steps];
}

function isDetail(step: string): boolean {
  return step.startsWith("  ");
}

function reasoningText(a: SkillAnswer, ins: Instructions): string {
  const zh = ins.chinese;
  const lines = [
    zh
      ? `好的，用户问的是 ${
        a.restatement ?? "这个问题"
      }。我需要一步一步仔细算。`
      : `Okay, the user wants ${
        a.restatement ?? "an answer to this question"
      }. Let me work it out carefully, step by step.`,
    ...a.steps,
  ];
  if (a.steps.length) {
    lines.push(
      zh
        ? "再检查一遍每一步……没有问题。"
        : "Let me double-check each step again... " +
          a.steps.filter((s) => !isDetail(s)).join("; ") +
          ". That looks right.",
    );
  }
  if (a.answer !== null && a.block !== undefined) {
    lines.push(
      zh
        ? "思路清楚了，下面把它写出来。"
        : "That settles it; now to write it out.",
    );
  } else if (a.answer !== null) {
    lines.push(
      zh ? `所以答案是 ${a.answer}。` : `So the answer is ${a.answer}.`,
    );
  } else {
    lines.push(zh ? "我不确定。" : "I'm not sure about this one.");
  }
  return lines.join("\n");
}

/** Working that loops until the token limit: "Wait, let me recompute." */
export function runaway(
  a: SkillAnswer,
  ins: Instructions,
  chars: number,
): string {
  const again = ins.chinese
    ? "等等，我再重新算一遍。"
    : "Wait, let me recompute that.";
  const block = [again, ...a.steps].join("\n");
  let text = ins.chinese
    ? "我们一步一步计算："
    : "Let's work through it step by step.";
  while (text.length < chars) text += "\n" + block;
  return text;
}
