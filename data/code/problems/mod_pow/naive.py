def mod_pow(base, exp, mod):
    result = 1 % mod
    b = base % mod
    for _ in range(exp):
        result = result * b % mod
    return result
