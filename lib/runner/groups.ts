/**
 * How a model with `n: true` asks for its samples: the one rule the sweep's
 * lanes follow and the plan counts by.
 *
 * The work items of one (question, template) come in runs of at most
 * {@linkcode MAX_N}. In a run, the leading items whose sample equals their
 * place (0, 1, 2, …: none of them stored or cached yet) go as ONE request
 * with `n` when there are two or more of them; every other item of the run
 * goes as its own request. Templates with tools go one conversation per
 * sample.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { requestCount, sampleGroups } from "./groups.ts";
 * const template = {};
 * const items = [0, 1, 2].map((sample) => ({ entry: "e", question: "q", templateId: "t", template, sample }));
 * const groups = [...sampleGroups(items)];
 * assert.equal(groups.length, 1);
 * assert.equal(requestCount(groups[0]!), 1);
 * ```
 *
 * @module
 */

/** Most samples asked for in one request (the OpenAI API's limit on `n`). */
export const MAX_N = 128;

/** What the rule reads of a work item (a `WorkItem` has all of it). */
export interface SampleItem {
  /** The suite entry of the question (compared by identity). */
  readonly entry: unknown;
  /** The question (compared by identity). */
  readonly question: unknown;
  /** The template's id. */
  readonly templateId: string;
  /** The template; one with tools asks per sample. */
  readonly template: { readonly tools?: readonly unknown[] | undefined };
  /** The sample index. */
  readonly sample: number;
}

/** Options of {@linkcode sampleGroups}. */
export interface SampleGroupsOptions {
  /**
   * Most items in a group: {@linkcode MAX_N} for a model with `n: true`,
   * 1 for one without (every item its own group).
   * @default {MAX_N}
   */
  size?: number;
}

/**
 * Cuts a model's work items into runs of one (entry, question, template),
 * at most `size` long. Items arrive sample by sample, so a run is
 * consecutive; nothing is read ahead of the run being built.
 *
 * @param items The work items, in the order `workItems` yields them.
 * @param options The largest group.
 * @returns A lazy generator of the groups, in order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sampleGroups } from "./groups.ts";
 * const template = {};
 * const item = (question: string, sample: number) => ({ entry: "e", question, templateId: "t", template, sample });
 * const items = [item("a", 0), item("a", 1), item("a", 2), item("b", 0)];
 * const samples = (size?: number) =>
 *   [...sampleGroups(items, size === undefined ? {} : { size })].map((g) => g.map((i) => i.sample));
 * assert.deepEqual(samples(), [[0, 1, 2], [0]]);
 * assert.deepEqual(samples(2), [[0, 1], [2], [0]]);
 * assert.deepEqual(samples(1), [[0], [1], [2], [0]]);
 * ```
 */
export function* sampleGroups<T extends SampleItem>(
  items: Iterable<T>,
  options: SampleGroupsOptions = {},
): Generator<T[]> {
  const { size = MAX_N } = options;
  let group: T[] = [];
  for (const item of items) {
    const head = group[0];
    if (
      head !== undefined &&
      (head.question !== item.question || head.templateId !== item.templateId ||
        head.entry !== item.entry || group.length >= size)
    ) {
      yield group;
      group = [];
    }
    group.push(item);
  }
  if (group.length > 0) yield group;
}

/**
 * How many leading items of a group go as one request with `n`: those whose
 * sample equals their place in the group and that are not answered
 * already, when there are at least two of them; 0 otherwise, and always
 * for a template with tools (one conversation per sample).
 *
 * @param group One group of {@linkcode sampleGroups}.
 * @param answered Whether the item at an index has an answer already (a cache hit). @default {none has}
 * @returns The `n` of the shared request, or 0 when every item goes alone.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sharedSamples } from "./groups.ts";
 * const group = (...samples: number[]) =>
 *   samples.map((sample) => ({ entry: "e", question: "q", templateId: "t", template: {}, sample }));
 * assert.equal(sharedSamples(group(0, 1, 2)), 3);
 * assert.equal(sharedSamples(group(0, 1, 2), (i) => i === 1), 0); // 0 alone: no shared request
 * assert.equal(sharedSamples(group(0, 2)), 0); // a resume's gap: one by one
 * assert.equal(sharedSamples(group(1, 2)), 0);
 * ```
 */
export function sharedSamples(
  group: readonly SampleItem[],
  answered: (index: number) => boolean = () => false,
): number {
  if ((group[0]?.template.tools?.length ?? 0) > 0) return 0;
  let m = 0;
  while (m < group.length && group[m]!.sample === m && !answered(m)) m++;
  return m >= 2 ? m : 0;
}

/**
 * How many requests a group opens (none of it answered already): one for
 * its shared samples and one per other item. The tool loop's extra turns
 * are not counted.
 *
 * @param group One group of {@linkcode sampleGroups}.
 * @returns The requests the sweep sends for the group.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { requestCount } from "./groups.ts";
 * const group = (tools: unknown[], ...samples: number[]) =>
 *   samples.map((sample) => ({ entry: "e", question: "q", templateId: "t", template: { tools }, sample }));
 * assert.equal(requestCount(group([], 0, 1, 2, 3)), 1);
 * assert.equal(requestCount(group([], 0, 1, 3)), 2);
 * assert.equal(requestCount(group(["calc"], 0, 1, 2)), 3);
 * ```
 */
export function requestCount(group: readonly SampleItem[]): number {
  const m = sharedSamples(group);
  return m === 0 ? group.length : 1 + group.length - m;
}
