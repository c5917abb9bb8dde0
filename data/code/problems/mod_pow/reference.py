def mod_pow(base, exp, mod):
    result = 1 % mod
    b = base % mod  # Python's % is already non-negative for a positive modulus
    e = exp
    while e > 0:
        if e & 1:
            result = result * b % mod
        b = b * b % mod
        e >>= 1
    return result
