#!/bin/bash
# Verifier for sys-nobody-app. Runs as [verifier].user = nobody: runs the agent's
# /app/bin/wordfreq on hidden texts and writes 1 (all match) or 0 to reward.txt.
mkdir -p /logs/verifier
prog=/app/bin/wordfreq
work=$(mktemp -d)
passed=0
total=0
for input in /tests/cases/*.txt; do
    total=$((total + 1))
    expected="${input%.txt}.expected"
    if timeout 20 "$prog" < "$input" > "$work/out" 2> "$work/err" && cmp -s "$work/out" "$expected"; then
        passed=$((passed + 1))
        echo "PASS $(basename "$input")"
    else
        echo "FAIL $(basename "$input"):"
        head -c 2000 "$work/err"
        diff "$expected" "$work/out" | head -n 20
    fi
done
echo "running as $(id -un): $passed/$total passed"
if [ "$total" -gt 0 ] && [ "$passed" -eq "$total" ]; then
    echo 1 > /logs/verifier/reward.txt
else
    echo 0 > /logs/verifier/reward.txt
fi
exit 0
