#!/bin/sh
# Oracle solution for sys-baseline-app. Runs as root in /workspace; busybox only.
set -eu
cat > /workspace/report.sh <<'SH'
#!/bin/sh
# report.sh CSV - single-pass spending report, output identical to legacy v1.4.
awk -F, 'NR > 1 { t[$2] += $3; c[$2]++; gt += $3; gc++ }
END {
    for (k in t) print k, t[k], c[k] | "sort"
    close("sort")
    print "TOTAL", gt + 0, gc + 0
}' "$1"
SH
chmod 0755 /workspace/report.sh
