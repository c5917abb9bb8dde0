/**
 * The multiple-choice skill: answers C-Eval style four-option questions
 * (Chinese or English) in the styles real models use — a bare letter,
 * "答案：B" after an answer cue, "答案是 B. <option text>", long reasoning
 * that discusses other letters before "所以答案是D", and English "The
 * answer is (C)".
 *
 * What the sim can and cannot know (it answers only from the prompt):
 * - It reads the last `A. … D.` option block, the stem above it and the
 *   subject named in a C-Eval header ("以下是中国关于高中数学考试…"),
 *   which gives the level and the HARD flag through the subject table.
 * - It can solve a stem that is a bare arithmetic expression ("计算 … 的
 *   值"), a number sequence with a blank, a linear equation, a derivative
 *   at a point or a small determinant (`_choice_solver.ts`), by computing
 *   the value exactly and finding the option that states it. On those it errs with the profile's
 *   calibrated chance for a problem of size 1.5 (middle school), 2.5 (high
 *   school), 3.5 (college) or 3 (professional), +1 for a HARD subject, plus
 *   0.3 per operation beyond two; a mistake picks another option.
 * - It cannot know facts. On every other question it guesses: the letter
 *   comes from a hash of the stem alone, so every profile makes the same
 *   guess in every prompt mode and sample (they lack the same knowledge;
 *   differences between profiles come from what they can compute and
 *   how they write), and accuracy there is at chance level (25% on four
 *   options) by construction. Profiles that refuse sometimes say they
 *   are unsure instead (5 × refusalRate, at most 30%).
 *
 * So subject accuracy differs by construction: computable subjects score
 * high and fall with level and HARD; knowledge subjects sit near 25%.
 *
 * @module
 */
import { CEVAL_SUBJECTS, cevalSubject } from "../subjects.ts";
import { hash32, mulberry32, pick } from "../../../providers/sim/rng.ts";
import { type ChoiceTask, parseChoiceTask } from "./_choice_parse.ts";
import { solveChoice } from "./_choice_solver.ts";
import { passes } from "../../../providers/sim/skills/chance.ts";
import {
  defineSkill,
  type RegisteredSkill,
  type SkillAnswer,
  type SkillInput,
} from "../../../providers/sim/skills/types.ts";

const BY_NAME_ZH = new Map(CEVAL_SUBJECTS.map((s) => [s.nameZh, s.key]));

const LEVEL_SIZE: Record<string, number> = {
  "middle school": 1.5,
  "high school": 2.5,
  "college": 3.5,
  "professional": 3,
};

/** Problem size on the calibration scale for a subject (default: high school). */
function sizeFor(task: ChoiceTask, ops: number): number {
  const key = task.subjectZh === null
    ? undefined
    : BY_NAME_ZH.get(task.subjectZh);
  const subject = key === undefined ? undefined : cevalSubject(key);
  const base = LEVEL_SIZE[subject?.level ?? "high school"] ?? 2.5;
  return base + (subject?.hard ? 1 : 0) + 0.3 * Math.max(0, ops - 2);
}

/** Reasoning that weighs other options first, then settles on `letter`. */
function discussion(
  task: ChoiceTask,
  letter: string,
  input: SkillInput,
  work: string[],
): string[] {
  const zh = input.instructions.chinese;
  const others = task.letters.filter((l) => l !== letter);
  const steps: string[] = [];
  const tempting = pick(input.rng, others);
  steps.push(
    zh
      ? `先看选项 ${tempting}：“${
        task.options[tempting]
      }”，乍一看似乎可以，但仔细推敲并不成立。`
      : `Option ${tempting} ("${
        task.options[tempting]
      }") looks tempting at first, but it does not hold up.`,
  );
  steps.push(...work);
  for (const other of others.filter((l) => l !== tempting)) {
    steps.push(
      zh
        ? `${other} 项“${task.options[other]}”明显错误。`
        : `${other} ("${task.options[other]}") is clearly wrong.`,
    );
  }
  steps.push(
    zh ? `所以答案是${letter}。` : `So the answer is ${letter}.`,
  );
  return steps;
}

/** The answer as a profile writes it: "B", "B. text" or "(B)". */
function styled(task: ChoiceTask, letter: string, input: SkillInput): string {
  const { instructions: ins, profile, rng } = input;
  if (ins.bare || ins.marker !== null || ins.cot) return letter;
  const r = rng();
  if (!ins.chinese) return r < 0.5 ? `(${letter})` : letter;
  if (profile.chatty || r < 0.3) return `${letter}. ${task.options[letter]}`;
  return letter;
}

/** The multiple-choice skill (C-Eval style prompts). */
export const multipleChoiceSkill: RegisteredSkill = defineSkill<ChoiceTask>({
  name: "multiple_choice",
  match(input) {
    return parseChoiceTask(input.question, input.system);
  },
  solve(task, input): SkillAnswer {
    const solved = solveChoice(task.stem, task.options);
    let letter: string;
    let work: string[] = [];
    let size: number;
    if (solved !== null) {
      size = sizeFor(task, solved.ops);
      if (passes(input, size)) {
        letter = solved.letter;
        work = solved.steps;
      } else {
        letter = pick(
          input.rng,
          task.letters.filter((l) => l !== solved.letter),
        );
        work = [
          input.instructions.chinese
            ? `计算得 ${task.options[letter]}`
            : `This gives ${task.options[letter]}`,
        ];
      }
    } else {
      size = sizeFor(task, 0);
      const belief = mulberry32(hash32(task.stem));
      letter = task.letters[Math.floor(belief() * task.letters.length)]!;
      if (input.rng() < Math.min(0.3, input.profile.refusalRate * 5)) {
        return { answer: null, numeric: false, steps: [], difficulty: size };
      }
    }
    return {
      answer: styled(task, letter, input),
      numeric: false,
      steps: discussion(task, letter, input, work),
      difficulty: size,
    };
  },
});
