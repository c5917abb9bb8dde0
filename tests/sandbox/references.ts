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

/**
 * Programs whose work hides in builtins: a loop count alone says O(n),
 * the builtin makes it O(n²) (or the engine's string representation keeps
 * it O(n)). `class` per language.
 */
export interface HiddenWork {
  name: string;
  class: Record<"python" | "javascript", ComplexityClass>;
  entry: string;
  code: Record<"python" | "javascript", string>;
  input: (n: number) => unknown[];
}

/** A permutation of 0..n-1 (distinct values: membership scans the whole list). */
function permutation(n: number, seed = 11): number[] {
  const out = Array.from({ length: n }, (_, i) => i);
  let x = seed >>> 0;
  for (let i = n - 1; i > 0; i--) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    const j = x % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The hidden-work programs. */
export const HIDDEN_WORK: HiddenWork[] = [
  {
    name: "membership on a list in a loop",
    class: { python: "O(n^2)", javascript: "O(n^2)" },
    entry: "distinct",
    code: {
      python:
        "def distinct(xs):\n    seen = []\n    for x in xs:\n        if x not in seen:\n            seen.append(x)\n    return len(seen)\n",
      javascript:
        "function distinct(xs) { const seen = []; for (const x of xs) if (!seen.includes(x)) seen.push(x); return seen.length; }",
    },
    input: (n) => [permutation(n)],
  },
  {
    name: "membership in a set in a loop",
    class: { python: "O(n)", javascript: "O(n)" },
    entry: "distinct",
    code: {
      python:
        "def distinct(xs):\n    seen = set()\n    for x in xs:\n        if x not in seen:\n            seen.add(x)\n    return len(seen)\n",
      javascript:
        "function distinct(xs) { const seen = new Set(); for (const x of xs) if (!seen.has(x)) seen.add(x); return seen.size; }",
    },
    input: (n) => [permutation(n)],
  },
  {
    name: "index/indexOf in a loop",
    class: { python: "O(n^2)", javascript: "O(n^2)" },
    entry: "positions",
    code: {
      python:
        "def positions(xs, ys):\n    total = 0\n    for y in ys:\n        total += xs.index(y)\n    return total\n",
      javascript:
        "function positions(xs, ys) { let total = 0; for (const y of ys) total += xs.indexOf(y); return total; }",
    },
    input: (n) => [permutation(n, 3), permutation(n, 5)],
  },
  {
    name: "insert at the front in a loop",
    class: { python: "O(n^2)", javascript: "O(n^2)" },
    entry: "reversed_copy",
    code: {
      python:
        "def reversed_copy(xs):\n    out = []\n    for x in xs:\n        out.insert(0, x)\n    return out[0] if out else None\n",
      javascript:
        "function reversed_copy(xs) { const out = []; for (const x of xs) out.unshift(x); return out.length ? out[0] : null; }",
    },
    input: (n) => [permutation(n)],
  },
  {
    name: "string prepending in a loop",
    // CPython copies the string on every prepend; V8 builds a rope and
    // flattens it once
    class: { python: "O(n^2)", javascript: "O(n)" },
    entry: "backwards",
    code: {
      python:
        "def backwards(s):\n    out = ''\n    for ch in s:\n        out = ch + out\n    return len(out)\n",
      javascript:
        "function backwards(s) { let out = ''; for (const ch of s) out = ch + out; return out.length; }",
    },
    input: (n) => ["abcdefghij".repeat(Math.ceil(n / 10)).slice(0, n)],
  },
  {
    name: "a sort inside a loop",
    // each sort of a sorted list plus one element is linear (TimSort runs)
    class: { python: "O(n^2)", javascript: "O(n^2)" },
    entry: "running_sorted",
    code: {
      python:
        "def running_sorted(xs):\n    ys = []\n    for x in xs:\n        ys.append(x)\n        ys.sort()\n    return ys[len(ys) // 2] if ys else None\n",
      javascript:
        "function running_sorted(xs) { const ys = []; for (const x of xs) { ys.push(x); ys.sort((a, b) => a - b); } return ys.length ? ys[ys.length >> 1] : null; }",
    },
    input: (n) => [permutation(n)],
  },
];
