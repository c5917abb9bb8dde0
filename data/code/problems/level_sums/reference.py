def level_sums(tree):
    if not tree or tree[0] is None:
        return []
    sums = []
    depth = [0]  # depth of the k-th non-null node, in listing order
    sums.append(tree[0])
    parent_pos = 0
    i = 1
    while i < len(tree):
        d = depth[parent_pos] + 1
        for j in (i, i + 1):
            if j < len(tree) and tree[j] is not None:
                if d == len(sums):
                    sums.append(0)
                sums[d] += tree[j]
                depth.append(d)
        parent_pos += 1
        i += 2
    return sums
