def tree_height_from_parents(parent):
    best = 0
    for i in range(len(parent)):
        # walk up from every node
        depth = 1
        x = i
        while parent[x] != -1:
            x = parent[x]
            depth += 1
        if depth > best:
            best = depth
    return best
