def most_frequent_char(s):
    chars = list(s)
    best, best_count = "", 0
    for i in range(len(chars)):
        c = 0
        for j in range(len(chars)):
            if chars[j] == chars[i]:
                c += 1
        if c > best_count:
            best, best_count = chars[i], c
    return [best, best_count]
