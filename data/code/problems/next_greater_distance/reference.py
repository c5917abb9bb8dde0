def next_greater_distance(nums: list[int]) -> list[int]:
    out = [0] * len(nums)
    stack = []
    for j, x in enumerate(nums):
        while stack and nums[stack[-1]] < x:
            i = stack.pop()
            out[i] = j - i
        stack.append(j)
    return out
