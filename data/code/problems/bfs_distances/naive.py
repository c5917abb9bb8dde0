def bfs_distances(n, edges, source):
    # Finds the neighbours of each dequeued vertex by scanning the whole edge list.
    dist = [-1] * n
    dist[source] = 0
    queue = [source]
    head = 0
    while head < len(queue):
        u = queue[head]
        head += 1
        for a, b in edges:
            if a == u:
                v = b
            elif b == u:
                v = a
            else:
                continue
            if dist[v] == -1:
                dist[v] = dist[u] + 1
                queue.append(v)
    return dist
