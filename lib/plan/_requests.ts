/**
 * Which work items of a lane open a request, as the sweep sends them. The
 * rule mirrors `lib/runner/_lane.ts` (`sampleGroups` and `answerGroup`,
 * private there); `tests/plan/requests_test.ts` checks it against the
 * requests a real sweep sends.
 *
 * @module
 */
import type { WorkItem } from "../runner/mod.ts";

/** Most samples asked for in one request (the runner's `MAX_N`, OpenAI's limit on `n`). */
const MAX_N = 128;

/**
 * A counter over one model's work items, in the order `workItems` yields
 * them, that says whether an item opens a request.
 *
 * Without `n` every item is its own request. With `n` (`grouped`), the
 * runner takes the items of one (question, template) in runs of at most
 * {@linkcode MAX_N}; in a run, the leading items whose sample equals their
 * place in the run (0, 1, 2, …: nothing of them stored yet) go as ONE
 * request, every other item of the run as its own request. Templates with
 * tools go one conversation per sample (each counted as one request, as
 * without `n`: the tool loop's extra turns are not foreseen).
 *
 * @param grouped The model has `n: true` and the sweep more than one sample.
 * @returns A function that takes the next item and says whether it opens a request.
 */
export function requestOpener(grouped: boolean): (item: WorkItem) => boolean {
  if (!grouped) return () => true;
  let head: WorkItem | undefined;
  let place = 0;
  return (item) => {
    if (
      head === undefined || head.question !== item.question ||
      head.templateId !== item.templateId || head.entry !== item.entry ||
      place >= MAX_N
    ) {
      head = item;
      place = 0;
    }
    const at = place++;
    if ((item.template.tools?.length ?? 0) > 0) return true;
    // Samples rise within a run, so sample === place means every item
    // before it in the run was at its place too: it rides on the first's
    // request.
    return at === 0 || item.sample !== at;
  };
}
