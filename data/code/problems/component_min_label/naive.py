def component_min_label(n, edges):
    adj = [[] for _ in range(n)]
    for u, v in edges:
        adj[u].append(v)
        adj[v].append(u)
    label = []
    for s in range(n):
        # a fresh search from every vertex
        seen = [False] * n
        seen[s] = True
        stack = [s]
        best = s
        while stack:
            u = stack.pop()
            if u < best:
                best = u
            for v in adj[u]:
                if not seen[v]:
                    seen[v] = True
                    stack.append(v)
        label.append(best)
    return label
