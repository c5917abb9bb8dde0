// deno-lint-ignore-file no-unused-vars
function kClosestValues(nums, x, k) {
  // Sorting by (distance, value) is O(n log n), the required class.
  const key = (v) => Math.abs(v - x);
  return [...nums].sort((a, b) => key(a) - key(b) || a - b).slice(0, k);
}
