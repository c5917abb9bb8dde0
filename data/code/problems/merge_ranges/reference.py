def merge_ranges(ranges: list[list[int]]) -> list[list[int]]:
    out = []
    for start, end in sorted(ranges):
        if out and start <= out[-1][1]:
            if end > out[-1][1]:
                out[-1][1] = end
        else:
            out.append([start, end])
    return out
