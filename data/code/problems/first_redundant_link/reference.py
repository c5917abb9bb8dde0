def first_redundant_link(n, edges):
    parent = list(range(n))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i, (u, v) in enumerate(edges):
        a, b = find(u), find(v)
        if a == b:
            return i
        parent[a] = b
    return -1
