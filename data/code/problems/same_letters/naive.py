def same_letters(a, b):
    rest = list(b)
    for ch in a:
        # look for a matching character and take it out
        found = -1
        for i in range(len(rest)):
            if rest[i] == ch:
                found = i
                break
        if found == -1:
            return False
        del rest[found]
    return len(rest) == 0
