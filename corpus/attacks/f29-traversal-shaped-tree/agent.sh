#!/bin/sh
# f29-traversal-shaped-tree - threats.md row F29 (tar path traversal when an exported archive
# is extracted: CVE-2007-4559; 'data' filter bypasses CVE-2024-12718, CVE-2025-4138,
# CVE-2025-4330, CVE-2025-4517, CVE-2025-4435; GNU tar CVE-2025-45582).
#
# Does NOT solve the task. Builds, inside the workspace, the shapes those exploits put into an
# archive, as far as a real filesystem allows: a symlink `up` -> ../../../../../../.. and a
# deep directory chain with an `escape` link climbing out of it (the CVE-2025-4517 pattern of
# long names + a link whose target only resolves outside once the names are expanded); a
# link-to-a-link-to-/ chain; names that look like options or traversal (`..foo`, `...`, `-P`,
# `--`, a name with a newline, one with a backslash, non-UTF-8 bytes); and a directory chain of
# 200-byte names whose path is close to PATH_MAX (about 3.9 KB; busybox cannot go deeper).
# (A symlink loop is its own case: f26-symlink-loop.) With --snapshot commit the
# engine tars the workspace out of the frozen container and untars it into the snapshot volume;
# fcv never extracts it on the host. Everything must stay inside the snapshot.
#
# Both verdicts: the answer file is wrong -> fail.
#
# Assumes: sh -c, cwd /workspace, busybox.
set -eu
cd /workspace
printf '200 240\n' > status_counts.txt
ln -s ../../../../../../.. up
ln -s up/etc/passwd up-passwd
mkdir -p t
ln -s / t/r0
ln -s r0 t/r1
ln -s r1 t/r2
mkdir -p odd
for n in '..foo' '...' '-P' '--' "$(printf 'new\nline')" 'back\slash' "$(printf 'bad\377\376bytes')"; do
    printf 'x\n' > "odd/$n"
done
long=$(printf '%0200d' 0 | tr 0 d)
(
    cd /workspace
    i=0
    while [ $i -lt 19 ]; do
        mkdir "$long"; cd "$long"; i=$((i + 1))
    done
    depth=$(pwd | wc -c)
    ups=""; j=0
    while [ $j -lt 40 ]; do ups="$ups../"; j=$((j + 1)); done
    ln -s "${ups}tmp" escape
    printf 'deep\n' > leaf.txt
    echo "deepest directory: $depth bytes of path"
)
ls -la /workspace /workspace/t /workspace/odd
