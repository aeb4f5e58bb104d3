#!/bin/sh
# uv installer, as served by https://astral.sh/uv/0.7.13/install.sh (abridged for the offline
# mirror): download the release archive with curl, unpack uv and uvx into ~/.local/bin, and
# write ~/.local/bin/env, which puts that directory first on PATH.
set -eu
version=0.7.13
target=uv-x86_64-unknown-linux-gnu
url="https://github.com/astral-sh/uv/releases/download/$version/$target.tar.gz"
dest="$HOME/.local/bin"
tmp=$(mktemp -d)
echo "downloading uv $version x86_64-unknown-linux-gnu"
curl -LsSf "$url" -o "$tmp/$target.tar.gz"
tar -xzf "$tmp/$target.tar.gz" -C "$tmp"
mkdir -p "$dest"
cp "$tmp/$target/uv" "$tmp/$target/uvx" "$dest/"
chmod 0755 "$dest/uv" "$dest/uvx"
rm -rf "$tmp"
cat > "$dest/env" <<ENV
#!/bin/sh
# add binaries to PATH if they aren't added yet
case ":\${PATH}:" in
    *:"$dest":*) ;;
    *) export PATH="$dest:\$PATH" ;;
esac
ENV
echo "installing to $dest"
echo "everything's installed!"
