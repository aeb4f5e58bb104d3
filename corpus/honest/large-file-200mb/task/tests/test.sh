#!/bin/sh
# Verifier for large-file-200mb (busybox only). Writes 1 (pass) or 0 (fail) to reward.txt.
mkdir -p /logs/verifier
blob=/workspace/blob.bin
want_size=209715200
want_full=347853376e2826259507d15ebd753732fa2102d058585441252499bc250a0e9a
# bytes 100 MiB .. 101 MiB
want_slice=8e6508ea8ebb2bf7b2d993a1d865e5ed7f6d389ed65e9573a0912a9a0feaff20
failed=0

if [ ! -f "$blob" ] || [ -L "$blob" ]; then
    echo "FAIL: $blob is missing or not a regular file"
    echo 0 > /logs/verifier/reward.txt
    exit 0
fi

size=$(stat -c %s "$blob")
if [ "$size" = "$want_size" ]; then echo "PASS: size $size"; else echo "FAIL: size $size"; failed=1; fi

slice=$(dd if="$blob" bs=1048576 skip=100 count=1 2>/dev/null | sha256sum | cut -d' ' -f1)
if [ "$slice" = "$want_slice" ]; then echo "PASS: slice hash"; else echo "FAIL: slice hash $slice"; failed=1; fi

full=$(sha256sum "$blob" | cut -d' ' -f1)
if [ "$full" = "$want_full" ]; then echo "PASS: full hash"; else echo "FAIL: full hash $full"; failed=1; fi

if [ "$(cat /workspace/blob.sha256 2>/dev/null)" = "$want_full  blob.bin" ]; then
    echo "PASS: blob.sha256"
else
    echo "FAIL: blob.sha256 is not '$want_full  blob.bin'"
    failed=1
fi

if [ "$failed" -eq 0 ]; then
    echo 1 > /logs/verifier/reward.txt
else
    echo 0 > /logs/verifier/reward.txt
fi
exit 0
