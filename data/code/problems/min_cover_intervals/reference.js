// deno-lint-ignore-file no-unused-vars
function minCoverIntervals(intervals, lo, hi) {
  const items = intervals.map(([a, b]) => [a, b]).sort((x, y) =>
    x[0] - y[0] || x[1] - y[1]
  );
  let i = 0;
  let count = 0;
  let cur = lo;
  while (count === 0 || cur < hi) {
    let far = null;
    while (i < items.length && items[i][0] <= cur) {
      if (far === null || items[i][1] > far) far = items[i][1];
      i++;
    }
    if (far === null || far < cur || (count > 0 && far === cur)) return -1;
    count++;
    cur = far;
  }
  return count;
}
