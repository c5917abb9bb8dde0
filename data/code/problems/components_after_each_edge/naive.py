def components_after_each_edge(n, edges):
    label = list(range(n))
    groups = n
    result = []
    for u, v in edges:
        a, b = label[u], label[v]
        if a != b:
            # relabel every node of group b
            for i in range(n):
                if label[i] == b:
                    label[i] = a
            groups -= 1
        result.append(groups)
    return result
