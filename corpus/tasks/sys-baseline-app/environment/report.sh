#!/bin/sh
# report.sh CSV - legacy spending report (v1.4). Input: CSV with header date,category,amount
# (amount in cents). Output: one line per category "category total count", categories in
# alphabetical order, then a line "TOTAL total count". Slow: one pass over the file per category.
file=$1
cats=$(tail -n +2 "$file" | cut -d, -f2 | sort -u)
grand=0
n=0
for c in $cats; do
    total=0
    count=0
    for amount in $(tail -n +2 "$file" | grep ",$c," | cut -d, -f3); do
        total=$((total + amount))
        count=$((count + 1))
    done
    echo "$c $total $count"
    grand=$((grand + total))
    n=$((n + count))
done
echo "TOTAL $grand $n"
