// deno-lint-ignore-file no-unused-vars
function minRooms(meetings) {
  const starts = meetings.map((m) => m[0]).sort((a, b) => a - b);
  const ends = meetings.map((m) => m[1]).sort((a, b) => a - b);
  let rooms = 0;
  let best = 0;
  let j = 0;
  for (const s of starts) {
    while (ends[j] <= s) {
      j++;
      rooms--;
    }
    rooms++;
    if (rooms > best) best = rooms;
  }
  return best;
}
