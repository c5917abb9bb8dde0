def lca_queries(parent, queries):
    answers = []
    for u, v in queries:
        # mark every ancestor of u, then walk up from v
        mark = set()
        x = u
        while x != -1:
            mark.add(x)
            x = parent[x]
        x = v
        while x not in mark:
            x = parent[x]
        answers.append(x)
    return answers
