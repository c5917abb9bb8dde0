from math import gcd


def lcm_range_mod(n):
    big = 1
    for i in range(2, n + 1):
        big = big * i // gcd(big, i)
    return big % 1000000007
