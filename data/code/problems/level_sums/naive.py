def level_sums(tree):
    if not tree or tree[0] is None:
        return []
    # parent index (into the non-null node list) of every non-null node
    values = [tree[0]]
    parent = [-1]
    p = 0
    i = 1
    while i < len(tree):
        for j in (i, i + 1):
            if j < len(tree) and tree[j] is not None:
                values.append(tree[j])
                parent.append(p)
        p += 1
        i += 2
    sums = []
    for k in range(len(values)):
        # depth by walking up to the root
        d = 0
        x = k
        while parent[x] != -1:
            x = parent[x]
            d += 1
        while len(sums) <= d:
            sums.append(0)
        sums[d] += values[k]
    return sums
