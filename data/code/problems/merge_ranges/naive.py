def merge_ranges(ranges: list[list[int]]) -> list[list[int]]:
    out = []
    for start, end in ranges:
        changed = True
        while changed:
            changed = False
            for i in range(len(out)):
                s, e = out[i]
                if s <= end and start <= e:
                    start, end = min(start, s), max(end, e)
                    out.pop(i)
                    changed = True
                    break
        out.append([start, end])
    out.sort()
    return out
