#!/bin/sh
# Verifier for empty-dirs (busybox only): each expected directory exists and holds exactly its
# listed children. Writes 1 (pass) or 0 (fail) to reward.txt.
mkdir -p /logs/verifier
root=/workspace/project
failed=0

# "dir|children": children sorted, space separated, "" for an empty directory
check() {
    dir=$1
    want=$2
    if [ ! -d "$root/$dir" ] || [ -L "$root/$dir" ]; then
        echo "FAIL: $dir is not a directory"
        failed=1
        return
    fi
    got=$(ls -A "$root/$dir" | sort | tr '\n' ' ' | sed 's/ $//')
    if [ "$got" = "$want" ]; then
        echo "PASS: $dir holds [$want]"
    else
        echo "FAIL: $dir holds [$got], expected [$want]"
        failed=1
    fi
}

check . ".config build docs empty-file logs src tests"
check src ""
check tests "fixtures"
check tests/fixtures ""
check docs ""
check build "cache"
check build/cache "objects"
check build/cache/objects ""
check logs ""
check .config ""

if [ -f "$root/empty-file" ] && [ ! -s "$root/empty-file" ] && [ ! -L "$root/empty-file" ]; then
    echo "PASS: empty-file is an empty regular file"
else
    echo "FAIL: empty-file is not an empty regular file"
    failed=1
fi

if [ "$failed" -eq 0 ]; then
    echo 1 > /logs/verifier/reward.txt
else
    echo 0 > /logs/verifier/reward.txt
fi
exit 0
