#!/bin/sh
# Oracle solution for scratch-build-output. Runs as root in the workdir (/workspace); busybox.
set -eu

cat > /workspace/build.sh <<'SH'
#!/bin/sh
set -eu
root=/workspace
rm -rf "$root/dist"
mkdir -p "$root/dist"
: > "$root/dist/bundle.txt"
: > "$root/dist/index.txt"
for part in "$root"/src/*.txt; do
    name=$(basename "$part")
    echo "== $name ==" >> "$root/dist/bundle.txt"
    cat "$part" >> "$root/dist/bundle.txt"
    echo "$name $(wc -l < "$part" | tr -d ' ')" >> "$root/dist/index.txt"
done
SH
chmod 0755 /workspace/build.sh
sh /workspace/build.sh
