def topo_order_smallest(n, edges):
    out = [[] for _ in range(n)]
    indeg = [0] * n
    for u, v in edges:
        out[u].append(v)
        indeg[v] += 1
    placed = [False] * n
    order = []
    for _ in range(n):
        # scan every task for the smallest available one
        pick = -1
        for v in range(n):
            if not placed[v] and indeg[v] == 0:
                pick = v
                break
        if pick == -1:
            return []
        placed[pick] = True
        order.append(pick)
        for v in out[pick]:
            indeg[v] -= 1
    return order
