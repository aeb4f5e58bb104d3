import sys

from checks import expected_sum  # /tests/checks.py, found through the script's directory

with open("/app/answer.txt") as f:
    answer = f.read().strip()
sys.exit(0 if answer == str(expected_sum("/app/numbers.txt")) else 1)
