#!/bin/sh
# Oracle solution for reward-json-metrics. Runs as root in the workdir (/workspace); busybox.
set -eu

cat > /workspace/fib.sh <<'SH'
#!/bin/sh
case "${1-}" in
    ''|*[!0-9]*) echo "usage: fib.sh N" >&2; exit 2 ;;
esac
awk -v n="$1" 'BEGIN {
    a = 0; b = 1; out = ""
    for (i = 0; i < n; i++) {
        out = out (i ? " " : "") sprintf("%.0f", a)
        t = a + b; a = b; b = t
    }
    print out
}'
SH
chmod 0755 /workspace/fib.sh
