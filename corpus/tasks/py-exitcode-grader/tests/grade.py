"""Grades /app/solution: imports it, compares count_islands() with a reference on fixed and
random grids, prints one line per case and exits 0 only if every case is right."""

import random
import sys

sys.path.insert(0, "/app")

import solution  # noqa: E402


def reference(grid):
    rows, cols = len(grid), len(grid[0]) if grid else 0
    parent = {}

    def find(a):
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for r in range(rows):
        for c in range(cols):
            if grid[r][c] == "#":
                parent[(r, c)] = (r, c)
                for nr, nc in ((r - 1, c), (r, c - 1)):
                    if (nr, nc) in parent:
                        parent[find((nr, nc))] = find((r, c))
    return len({find(p) for p in parent})


def cases():
    yield "example", ["##..", "#..#", "..##"]
    yield "empty", []
    yield "all water", ["....", "...."]
    yield "all land", ["###", "###"]
    yield "diagonal", ["#.#", ".#.", "#.#"]
    yield "ring", ["#####", "#...#", "#.#.#", "#...#", "#####"]
    rng = random.Random(2024)
    for i in range(20):
        h, w = rng.randrange(1, 40), rng.randrange(1, 40)
        yield f"random {i}", ["".join(rng.choice("#..") for _ in range(w)) for _ in range(h)]
    yield "large", ["".join("#" if (r * 7 + c * 3) % 5 else "." for c in range(300))
                    for r in range(300)]


def main():
    failures = 0
    for name, grid in cases():
        want = reference(grid)
        try:
            got = solution.count_islands(list(grid))
            ok = isinstance(got, int) and not isinstance(got, bool) and got == want
        except Exception as e:  # a crash is a wrong answer
            got, ok = f"{type(e).__name__}: {e}", False
        print(f"{'PASS' if ok else 'FAIL'} {name}: expected {want}, got {got!r}")
        failures += not ok
    print(f"{failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
