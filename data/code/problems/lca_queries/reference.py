def lca_queries(parent, queries):
    n = len(parent)
    children = [[] for _ in range(n)]
    root = parent.index(-1)
    for i, p in enumerate(parent):
        if p != -1:
            children[p].append(i)
    depth = [0] * n
    order = [root]
    for u in order:
        for c in children[u]:
            depth[c] = depth[u] + 1
            order.append(c)
    # up[k][v]: the 2^k-th ancestor of v (the root is its own ancestor)
    up = [[root if p == -1 else p for p in parent]]
    levels = max(1, max(depth).bit_length())
    for _ in range(1, levels):
        prev = up[-1]
        up.append([prev[prev[v]] for v in range(n)])
    answers = []
    for u, v in queries:
        if depth[u] < depth[v]:
            u, v = v, u
        diff = depth[u] - depth[v]
        k = 0
        while diff:
            if diff & 1:
                u = up[k][u]
            diff >>= 1
            k += 1
        if u != v:
            for k in range(levels - 1, -1, -1):
                if up[k][u] != up[k][v]:
                    u = up[k][u]
                    v = up[k][v]
            u = up[0][u]
        answers.append(u)
    return answers
