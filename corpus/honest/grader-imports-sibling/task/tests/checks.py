def expected_sum(path):
    with open(path) as f:
        return sum(int(line) for line in f if line.strip())
