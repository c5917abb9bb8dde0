/**
 * Reference programs of known complexity class, in Python and JavaScript,
 * shared by the complexity test and the benchmark.
 *
 * @module
 */
import type { ComplexityClass, Language } from "../../lib/sandbox/mod.ts";

/** One reference: its class, code per language, entry and input(n). */
export interface Reference {
  class: ComplexityClass;
  entry: string;
  code: Record<"python" | "javascript", string>;
  input: (n: number) => unknown[];
}

/** Deterministic pseudo-random integers (inputs only). */
function ints(n: number, seed = 7): number[] {
  let x = seed >>> 0;
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out[i] = x % 1_000_000;
  }
  return out;
}

const sortedInts = (n: number) => Array.from({ length: n }, (_, i) => 2 * i);

/** The seven reference classes. */
export const REFERENCES: Reference[] = [
  {
    class: "O(1)",
    entry: "lookup",
    code: {
      python: "def lookup(xs, i):\n    return xs[i % len(xs)]\n",
      javascript: "function lookup(xs, i) { return xs[i % xs.length]; }",
    },
    input: (n) => [ints(n), n >> 1],
  },
  {
    class: "O(log n)",
    entry: "search",
    code: {
      python:
        "def search(xs, t):\n    lo, hi = 0, len(xs)\n    while lo < hi:\n        mid = (lo + hi) // 2\n        if xs[mid] < t:\n            lo = mid + 1\n        else:\n            hi = mid\n    return lo\n",
      javascript:
        "function search(xs, t) { let lo = 0, hi = xs.length; while (lo < hi) { const mid = (lo + hi) >> 1; if (xs[mid] < t) lo = mid + 1; else hi = mid; } return lo; }",
    },
    input: (n) => [sortedInts(n), n - 1],
  },
  {
    class: "O(n)",
    entry: "total",
    code: {
      python:
        "def total(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s\n",
      javascript:
        "function total(xs) { let s = 0; for (let i = 0; i < xs.length; i++) s += xs[i]; return s; }",
    },
    input: (n) => [ints(n)],
  },
  {
    class: "O(n log n)",
    entry: "gap",
    code: {
      python:
        "def gap(xs):\n    ys = sorted(xs)\n    best = 0\n    for i in range(1, len(ys)):\n        best = max(best, ys[i] - ys[i - 1])\n    return best\n",
      javascript:
        "function gap(xs) { const ys = xs.slice().sort((a, b) => a - b); let best = 0; for (let i = 1; i < ys.length; i++) best = Math.max(best, ys[i] - ys[i - 1]); return best; }",
    },
    input: (n) => [ints(n)],
  },
  {
    class: "O(n^2)",
    entry: "pairs",
    code: {
      python:
        "def pairs(xs):\n    c = 0\n    n = len(xs)\n    for i in range(n):\n        for j in range(n):\n            if xs[i] < xs[j]:\n                c += 1\n    return c\n",
      javascript:
        "function pairs(xs) { let c = 0; const n = xs.length; for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (xs[i] < xs[j]) c++; return c; }",
    },
    input: (n) => [ints(n)],
  },
  {
    class: "O(n^3)",
    entry: "triples",
    code: {
      python:
        "def triples(xs):\n    c = 0\n    n = len(xs)\n    for i in range(n):\n        for j in range(n):\n            for k in range(n):\n                if xs[i] + xs[j] < xs[k]:\n                    c += 1\n    return c\n",
      javascript:
        "function triples(xs) { let c = 0; const n = xs.length; for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) for (let k = 0; k < n; k++) if (xs[i] + xs[j] < xs[k]) c++; return c; }",
    },
    input: (n) => [ints(n)],
  },
  {
    class: "O(2^n)",
    entry: "fib",
    code: {
      python:
        "def fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\n",
      javascript:
        "function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }",
    },
    input: (n) => [n],
  },
];

/** Languages the references are written in. */
export const REFERENCE_LANGUAGES: Language[] = ["python", "javascript"];
