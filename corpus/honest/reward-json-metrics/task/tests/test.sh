#!/bin/sh
# Verifier for reward-json-metrics (busybox only): runs /workspace/fib.sh on several inputs and
# writes reward.json with the primary reward and further metrics.
mkdir -p /logs/verifier
fib=/workspace/fib.sh
passed=0
total=0

expect() {  # expect NAME WANT_STATUS WANT_STDOUT ARGS...
    name=$1; want_status=$2; want=$3; shift 3
    total=$((total + 1))
    got=$("$fib" "$@" 2>/dev/null)
    status=$?
    if [ "$status" = "$want_status" ] && [ "$got" = "$want" ]; then
        passed=$((passed + 1)); echo "PASS $name"
    else
        echo "FAIL $name: status $status, output '$got'"
    fi
}

expect "n=0" 0 "" 0
expect "n=1" 0 "0" 1
expect "n=10" 0 "0 1 1 2 3 5 8 13 21 34" 10
expect "n=60 last" 0 "$(cat /tests/fib60.txt)" 60
expect "no argument" 2 ""
expect "not a number" 2 "" ten

style=0
if [ -x "$fib" ] && [ "$(head -n 1 "$fib")" = "#!/bin/sh" ]; then style=1; fi
echo "style: $style"

reward=0
if [ "$passed" = "$total" ] && [ "$style" = 1 ]; then reward=1; fi
ratio=$(awk -v p="$passed" -v t="$total" 'BEGIN { printf "%.4f", p / t }')
printf '{"reward": %s, "tests_passed": %s, "tests_total": %s, "pass_ratio": %s, "style": %s}\n' \
    "$reward" "$passed" "$total" "$ratio" "$style" > /logs/verifier/reward.json
cat /logs/verifier/reward.json
exit 0
