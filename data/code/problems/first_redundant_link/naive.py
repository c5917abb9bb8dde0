def first_redundant_link(n, edges):
    adj = [[] for _ in range(n)]
    for i, (u, v) in enumerate(edges):
        # search from u over the links added so far
        seen = [False] * n
        seen[u] = True
        stack = [u]
        while stack:
            x = stack.pop()
            for y in adj[x]:
                if not seen[y]:
                    seen[y] = True
                    stack.append(y)
        if seen[v]:
            return i
        adj[u].append(v)
        adj[v].append(u)
    return -1
