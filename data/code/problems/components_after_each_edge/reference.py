def components_after_each_edge(n, edges):
    parent = list(range(n))

    def find(x):
        root = x
        while parent[root] != root:
            root = parent[root]
        while parent[x] != root:  # path compression
            parent[x], x = root, parent[x]
        return root

    groups = n
    result = []
    for u, v in edges:
        a, b = find(u), find(v)
        if a != b:
            parent[b] = a
            groups -= 1
        result.append(groups)
    return result
