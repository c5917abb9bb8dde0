def min_cover_intervals(intervals: list[list[int]], lo: int, hi: int) -> int:
    count = 0
    cur = lo
    while count == 0 or cur < hi:
        far = None
        for a, b in intervals:
            if a <= cur <= b and (far is None or b > far):
                far = b
        if far is None or (count > 0 and far == cur):
            return -1
        count += 1
        cur = far
    return count
