def citation_index(citations: list[int]) -> int:
    a = sorted(citations, reverse=True)
    h = 0
    while h < len(a) and a[h] >= h + 1:
        h += 1
    return h
