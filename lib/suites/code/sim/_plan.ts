/**
 * What the sim says about its approach to a bank problem: the plan steps
 * before the code, and the prose reply without code.
 *
 * @module
 */
import type { Uniform } from "../../../providers/sim/rng.ts";
import type { RecalledProblem } from "./_bank.ts";

/** The approach per bank topic, in English and in Chinese. */
const APPROACH: Record<string, [string, string]> = {
  arrays_hashing: [
    "keep a hash map of what has been seen in one pass",
    "一次遍历，用哈希表记录见过的元素",
  ],
  two_pointers: [
    "sort if needed and move two pointers towards each other",
    "必要时排序，再用双指针相向移动",
  ],
  sliding_window: [
    "slide a window over the input and update its state incrementally",
    "用滑动窗口遍历输入，增量维护窗口状态",
  ],
  stack_queue: ["use a monotonic stack or a deque", "使用单调栈或双端队列"],
  binary_search: [
    "binary search on the sorted order or on the answer",
    "在有序序列或答案上二分查找",
  ],
  sorting: ["sort, then scan once", "先排序，再扫描一遍"],
  heaps: ["keep a heap of the best candidates", "用堆维护最优的候选"],
  intervals: ["sort the intervals by start and sweep", "按起点排序区间后扫描"],
  strings: [
    "scan the string once with counters or a prefix function",
    "用计数或前缀函数扫描字符串一遍",
  ],
  dynamic_programming: [
    "define the subproblem and fill a DP table",
    "定义子问题并填写 DP 表",
  ],
  graphs: [
    "build an adjacency list and traverse it (BFS/DFS or Dijkstra)",
    "建立邻接表并遍历（BFS/DFS 或 Dijkstra）",
  ],
  union_find: ["merge components with union-find", "用并查集合并连通分量"],
  trees: ["traverse the tree from the parent links", "根据父节点关系遍历树"],
  greedy: [
    "make the locally best choice after sorting",
    "排序后每一步做局部最优选择",
  ],
  math: ["use the number-theoretic identity directly", "直接使用数论公式"],
  bit_manipulation: ["work bit by bit", "按位处理"],
};

/** The plan steps: approach, edge cases, time complexity. */
export function planSteps(
  p: RecalledProblem | null,
  naive: boolean,
  chinese: boolean,
): string[] {
  const k = chinese ? 1 : 0;
  if (!p) {
    return [
      chinese
        ? "思路：按题意逐步实现。"
        : "Approach: follow the description step by step.",
    ];
  }
  const approach = naive
    ? (chinese
      ? "直接枚举所有候选（暴力）"
      : "check every candidate directly (brute force)")
    : (APPROACH[p.topic]?.[k] ??
      (chinese ? "按题意实现" : "implement the description"));
  const cls = naive ? p.naiveComplexity : p.complexity;
  return chinese
    ? [
      `思路：${approach}。`,
      "边界：空输入、单个元素、重复元素。",
      `时间复杂度：${cls}。`,
    ]
    : [
      `Approach: ${approach}.`,
      "Edge cases: empty input, a single element, duplicates.",
      `Time complexity: ${cls}.`,
    ];
}

/** A reply that explains the approach without code. */
export function prose(
  p: RecalledProblem,
  chinese: boolean,
  rng: Uniform,
): string {
  const [en, zh] = APPROACH[p.topic] ??
    ["implement the description", "按题意实现"];
  if (chinese) {
    return `这道题可以这样做：${zh}，时间复杂度为 ${p.complexity}。需要的话我可以再写出完整代码。`;
  }
  return rng() < 0.5
    ? `To solve this, ${en}; that gives ${p.complexity} time. Let me know if you want the full code.`
    : `The idea: ${en}. Handle the empty input first, then return the result. This runs in ${p.complexity}.`;
}
