def tree_height_from_parents(parent):
    n = len(parent)
    if n == 0:
        return 0
    children = [[] for _ in range(n)]
    for i, p in enumerate(parent):
        if p != -1:
            children[p].append(i)
    height = 0
    level = [parent.index(-1)]
    while level:
        height += 1
        level = [c for u in level for c in children[u]]
    return height
