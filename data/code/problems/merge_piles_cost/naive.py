def merge_piles_cost(piles: list[int]) -> int:
    rest = list(piles)
    total = 0
    while len(rest) > 1:
        i = min(range(len(rest)), key=lambda k: rest[k])
        a = rest.pop(i)
        j = min(range(len(rest)), key=lambda k: rest[k])
        b = rest.pop(j)
        total += a + b
        rest.append(a + b)
    return total
