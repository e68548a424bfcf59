#!/usr/bin/env bash
# A Debian 13 root with PyTorch 2.6 (python3-torch) for running the PyTorch exports on CPU
# (tests/pytorch): Debian 12 has no torch with DTensor. Made once per machine, outside the
# checkout (about 6 minutes and 1.7 GB); a no-op when it is there. Needs root (debootstrap,
# chroot). The directory is $TAPESTRY_TORCH_ROOT, default /var/cache/tapestry/torch-root.
set -euo pipefail
root=${TAPESTRY_TORCH_ROOT:-/var/cache/tapestry/torch-root}
# Debian's main archive: the dated snapshot apt uses here still calls Debian 12 stable.
mirror=http://deb.debian.org/debian

complete() { [ -e "$1/usr/lib/python3/dist-packages/torch/__init__.py" ] && [ -x "$1/usr/bin/python3" ]; }

complete "$root" && exit 0
if [ "$(id -u)" != 0 ]; then
    echo "torch-root.sh: $root is missing and making it needs root (debootstrap, chroot)" >&2
    exit 1
fi
mkdir -p "$(dirname "$root")"
exec 9>"$root.lock"
flock 9
complete "$root" && exit 0  # made by another run while this one waited
if ! command -v debootstrap >/dev/null; then
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap
fi
partial="$root.partial"
rm -rf "$partial"
echo "torch-root.sh: making $root (Debian 13 with python3-torch; about 6 minutes, once per machine)" >&2
debootstrap --variant=minbase stable "$partial" "$mirror"
# apt inside the root wants /proc; a private mount namespace drops it whatever happens.
unshare --mount --fork sh -c "mount -t proc proc '$partial/proc' &&
    DEBIAN_FRONTEND=noninteractive chroot '$partial' apt-get install -y -q python3-torch python3-numpy &&
    chroot '$partial' apt-get clean"
complete "$partial"
mv "$partial" "$root"
echo "torch-root.sh: made $root" >&2
