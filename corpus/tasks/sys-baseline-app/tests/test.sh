#!/bin/sh
# Verifier for sys-baseline-app (busybox): the agent's /workspace/report.sh must match the
# legacy baseline /opt/legacy/report.sh byte for byte on hidden inputs and on a large generated
# input, where it must also finish within 5 seconds. Writes 1 or 0 to reward.txt.
mkdir -p /logs/verifier
new=/workspace/report.sh
base=/opt/legacy/report.sh
work=$(mktemp -d)
ok=1

for input in /tests/inputs/*.csv; do
    sh "$base" "$input" > "$work/expected" 2>&1
    if timeout 10 sh "$new" "$input" > "$work/actual" 2>&1 && cmp -s "$work/expected" "$work/actual"; then
        echo "PASS $(basename "$input")"
    else
        echo "FAIL $(basename "$input"):"; diff "$work/expected" "$work/actual" | head -n 20
        ok=0
    fi
done

# A large input (30000 rows, 4 categories): same output as the baseline, within 5 seconds.
awk 'BEGIN { print "date,category,amount"; for (i = 0; i < 30000; i++) print "2024-01-01,c" (i % 4) "," (i % 7 + 1) }' > "$work/big.csv"
sh "$base" "$work/big.csv" > "$work/big.expected" 2>&1
if timeout 5 sh "$new" "$work/big.csv" > "$work/big.actual" 2>&1 && cmp -s "$work/big.expected" "$work/big.actual"; then
    echo "PASS big input within 5 s"
else
    echo "FAIL big input (different or slower than 5 s)"; ok=0
fi

echo "$ok" > /logs/verifier/reward.txt
exit 0
