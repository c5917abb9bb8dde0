def dijkstra_distances(n, edges, source):
    adj = [[] for _ in range(n)]
    for u, v, w in edges:
        adj[u].append((v, w))
    dist = [-1] * n
    dist[source] = 0
    done = [False] * n
    for _ in range(n):
        # pick the closest unfinished vertex by scanning all of them
        u = -1
        for v in range(n):
            if not done[v] and dist[v] != -1 and (u == -1 or dist[v] < dist[u]):
                u = v
        if u == -1:
            break
        done[u] = True
        for v, w in adj[u]:
            if dist[v] == -1 or dist[u] + w < dist[v]:
                dist[v] = dist[u] + w
    return dist
