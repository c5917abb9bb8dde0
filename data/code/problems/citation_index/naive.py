def citation_index(citations: list[int]) -> int:
    for h in range(len(citations), 0, -1):
        count = 0
        for c in citations:
            if c >= h:
                count += 1
        if count >= h:
            return h
    return 0
