/**
 * Which suites a sim model could not read at all: a suite whose prompts no
 * sim skill reads gets the sim's non-answer on every row, which otherwise
 * looks like a model that fails everything. The lanes note each answered
 * row; the sweep turns what is left into one warning per suite × model.
 * Private to `lib/runner`.
 *
 * @module
 */

/** One suite × model: prompts seen so far, or that one was read. */
interface Tally {
  unread: number;
  read: boolean;
}

/** Per suite × model, whether the provider could read any prompt. */
export class UnreadSuites {
  readonly #tallies = new Map<string, Map<string, Tally>>();

  /**
   * Notes one answered row of `suite` for `model`. `lacksSkill` is asked
   * only until one prompt of the pair is read (so a suite the sim reads
   * costs one question per model).
   */
  note(suite: string, model: string, lacksSkill: () => boolean): void {
    let bySuite = this.#tallies.get(suite);
    if (bySuite === undefined) this.#tallies.set(suite, bySuite = new Map());
    let tally = bySuite.get(model);
    if (tally === undefined) {
      bySuite.set(model, tally = { unread: 0, read: false });
    }
    if (tally.read) return;
    if (lacksSkill()) tally.unread++;
    else tally.read = true;
  }

  /**
   * One warning per suite × model whose every noted prompt went unread,
   * in the order they were first noted.
   */
  warnings(): string[] {
    const out: string[] = [];
    for (const [suite, byModel] of this.#tallies) {
      for (const [model, { unread, read }] of byModel) {
        if (read || unread === 0) continue;
        const prompts = unread === 1
          ? "the 1 prompt"
          : `any of the ${unread} prompts`;
        out.push(
          `sim model "${model}" has no skill for ${prompts} of suite "${suite}": every reply is the sim's polite non-answer, so no row has an answer; add a sim skill to the suite (docs/write-a-suite.md) or sweep a real endpoint`,
        );
      }
    }
    return out;
  }
}
