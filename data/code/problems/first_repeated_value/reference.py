def first_repeated_value(nums: list[int]) -> int | None:
    seen = set()
    for x in nums:
        if x in seen:
            return x
        seen.add(x)
    return None
