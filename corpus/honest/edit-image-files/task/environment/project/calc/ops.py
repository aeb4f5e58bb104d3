def add(a, b):
    return a + b


def mean(values):
    # BUG: integer division, and an empty list crashes
    return sum(values) // len(values)
