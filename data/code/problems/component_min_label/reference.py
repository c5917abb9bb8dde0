def component_min_label(n, edges):
    adj = [[] for _ in range(n)]
    for u, v in edges:
        adj[u].append(v)
        adj[v].append(u)
    label = [-1] * n
    for start in range(n):
        if label[start] != -1:
            continue
        # start is the smallest unlabelled vertex, hence the smallest of its component
        label[start] = start
        stack = [start]
        while stack:
            u = stack.pop()
            for v in adj[u]:
                if label[v] == -1:
                    label[v] = start
                    stack.append(v)
    return label
