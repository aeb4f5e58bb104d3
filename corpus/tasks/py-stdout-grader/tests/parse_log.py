"""SWE-bench style pytest log parser: status lines `STATUS <nodeid> [- message]` map each test
to its last reported status; reward 1 iff every required test is PASSED."""

import os
import sys

STATUSES = ("PASSED", "FAILED", "SKIPPED", "ERROR", "XFAIL", "XPASS")
REWARD = "/logs/verifier/reward.txt"


def parse(log_text):
    status = {}
    for line in log_text.splitlines():
        if not line.startswith(tuple(s + " " for s in STATUSES)):
            continue
        if line.startswith("FAILED"):
            line = line.replace(" - ", " ")
        parts = line.split()
        if len(parts) < 2:
            continue
        path, sep, name = parts[1].partition("::")
        status[os.path.basename(path) + sep + name] = parts[0]
    return status


def main(log_path, required_path):
    with open(log_path, errors="replace") as f:
        status = parse(f.read())
    with open(required_path) as f:
        required = [line.strip() for line in f if line.strip()]
    missing = [t for t in required if status.get(t) != "PASSED"]
    for t in required:
        print(f"{status.get(t, 'MISSING'):8} {t}")
    reward = 0 if missing or not required else 1
    print(f"{len(required) - len(missing)}/{len(required)} required tests passed; reward {reward}")
    with open(REWARD, "w") as f:
        f.write(f"{reward}\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
