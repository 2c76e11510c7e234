#!/bin/bash
# The hall's SD-card image for a Raspberry Pi 4 / 5 (arm64), from Debian 12's own packages with Debian's own tools
# (mmdebstrap, raspi-firmware, linux-image-arm64), the hall installed from the project's wheel and a wheelhouse
# by systemd/install.sh --wheelhouse --no-config --no-start --kiosk: nothing is downloaded on the Pi, and its first
# boot is setup mode (the projector's QR code, docs/install-pi.md).
#     sudo tools/image/build.sh [OUT.img]      # default tools/image/out/loto-hall-arm64.img
# Needs (Debian): mmdebstrap arch-test qemu-user-static binfmt-support dosfstools mtools e2fsprogs fdisk; root. Long: the arm64
# steps run under qemu-user emulation (tens of minutes on two cores). Not in CI.
set -euo pipefail
[ "$(id -u)" -eq 0 ] || { echo "run as root" >&2; exit 1; }
HERE="$(cd "$(dirname "$(readlink -f "$0")")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
OUT="$(readlink -f "${1:-$HERE/out/loto-hall-arm64.img}")"
for t in mmdebstrap arch-test mkfs.vfat mcopy mkfs.ext4 sfdisk; do command -v "$t" >/dev/null || { echo "missing: $t" >&2; exit 1; }; done
[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || { echo "no arm64 emulation: apt-get install qemu-user-static binfmt-support" >&2; exit 1; }
WORK="$(mktemp -d)"; trap 'rm -rf "$WORK"' EXIT
mkdir -p "$(dirname "$OUT")"
started=$(date +%s)

# The wheelhouse is made here, on the build machine, for the Pi (arm64, Debian 12's CPython 3.11): the arm64 root
# never reaches a package registry (pip runs there with --no-index only), and no certificate of this machine's
# ever goes into the image.
PY="$REPO/.venv/bin/python"; [ -x "$PY" ] || PY=python3
# what the root is given (sync-in): only this folder — $WORK holds the root itself, which must never be copied into itself
PAYLOAD="$WORK/payload"
WH="$PAYLOAD/wheelhouse"
echo "== the project's wheel (pure Python, any architecture)"
"$PY" -m pip wheel -q --no-deps -w "$WH" "$REPO"
echo "== its dependencies' wheels for the Pi (pip download --platform …aarch64 --only-binary=:all:)"
PLATFORMS=()
for glibc in 2014 _2_17 _2_24 _2_26 _2_27 _2_28 _2_31 _2_34 _2_35 _2_36; do PLATFORMS+=(--platform "manylinux${glibc}_aarch64"); done
"$PY" -m pip download -q "${PLATFORMS[@]}" --python-version 3.11 --implementation cp --abi cp311 --abi abi3 --abi none \
  --only-binary=:all: --find-links "$WH" -d "$WH" loto-hall
# [pi]'s packages with no arm64 wheel (evdev, the keypad): their source, built offline inside the root below with
# the compiler Debian installs there, and the build backend's wheels (pure Python)
PI_EXTRA="$("$PY" -I -c 'import sys, tomllib
print("\n".join(r.split(";")[0].strip() for r in tomllib.load(open(sys.argv[1], "rb"))["project"]["optional-dependencies"]["pi"]))' "$REPO/pyproject.toml")"
mapfile -t PI_EXTRA <<<"$PI_EXTRA"
"$PY" -m pip download -q --no-deps --no-binary=:all: -d "$WH" "${PI_EXTRA[@]}"
"$PY" -m pip download -q --no-deps --only-binary=:all: -d "$WH" setuptools wheel
mkdir -p "$PAYLOAD/src" && cp -a "$REPO/systemd" "$REPO/docs" "$PAYLOAD/src/" && rm -rf "$PAYLOAD/src/docs/screenshots"
cp "$HERE/loto-hall-grow.service" "$PAYLOAD/src/"

# The hotspot's packages (hall/app/hotspot.py PACKAGES), the kiosk's, the voice, the Pi's firmware and kernel.
PKGS=systemd-sysv,dbus,udev,kmod,iproute2,ca-certificates,python3,python3-venv,python3-dev,build-essential,openssl
PKGS=$PKGS,linux-image-arm64,raspi-firmware,firmware-brcm80211,initramfs-tools,cloud-guest-utils,e2fsprogs
PKGS=$PKGS,network-manager,dnsmasq-base,avahi-daemon,nftables,iw,wpasupplicant,polkitd,espeak-ng,chromium,cage,fonts-dejavu-core

echo "== Debian 12 arm64 root (mmdebstrap; the arm64 steps emulated)"
# mmdebstrap's own default mirror, Debian's: main for the system, non-free-firmware for the Pi's boot and Wi-Fi firmware
mmdebstrap --architectures=arm64 --variant=minbase --components=main,non-free-firmware --include="$PKGS" \
  --essential-hook='mkdir -p "$1/boot/firmware"' \
  --customize-hook='echo loto-hall > "$1/etc/hostname"; printf "127.0.0.1 localhost\n127.0.1.1 loto-hall\n" > "$1/etc/hosts"' \
  --customize-hook='printf "LABEL=RASPIROOT / ext4 rw,noatime 0 1\nLABEL=RASPIFIRM /boot/firmware vfat rw 0 2\n" > "$1/etc/fstab"' \
  --customize-hook='mkdir -p "$1/srv/loto-hall-build"' \
  --customize-hook="sync-in '$PAYLOAD' /srv/loto-hall-build" \
  --customize-hook='chroot "$1" python3 -I -m venv /srv/loto-hall-build/venv' \
  --customize-hook='chroot "$1" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root /srv/loto-hall-build/venv/bin/pip wheel -q --no-index --find-links /srv/loto-hall-build/wheelhouse -w /srv/loto-hall-build/wheelhouse "loto-hall[pi]"' \
  --customize-hook='chroot "$1" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root /srv/loto-hall-build/src/systemd/install.sh --wheelhouse /srv/loto-hall-build/wheelhouse --no-config --no-start --kiosk' \
  --customize-hook='install -m 0644 "$1/srv/loto-hall-build/src/loto-hall-grow.service" "$1/etc/systemd/system/"; chroot "$1" systemctl enable loto-hall-grow.service NetworkManager.service' \
  --customize-hook='sed -i "s|^#\?ROOTPART=.*|ROOTPART=LABEL=RASPIROOT|" "$1/etc/default/raspi-firmware"; chroot "$1" sh -c "/etc/kernel/postinst.d/z50-raspi-firmware \$(ls /lib/modules)"' \
  --customize-hook='rm -rf "$1/srv/loto-hall-build"; : > "$1/etc/machine-id"' \
  bookworm "$WORK/root"

echo "== partitions: firmware (FAT, RASPIFIRM) and root (ext4, RASPIROOT, grown to the card at first boot)"
FW_MB=512
ROOT_MB=$(( $(du -sm --exclude=./boot/firmware "$WORK/root" | cut -f1) * 12 / 10 + 512 ))
mkfs.vfat -n RASPIFIRM -C "$WORK/fw.img" $((FW_MB * 1024)) >/dev/null
mcopy -s -i "$WORK/fw.img" "$WORK/root/boot/firmware/"* ::/
mv "$WORK/root/boot/firmware" "$WORK/firmware" && mkdir "$WORK/root/boot/firmware"
mkfs.ext4 -q -L RASPIROOT -d "$WORK/root" "$WORK/root.img" "${ROOT_MB}M"
truncate -s $(( (4 + FW_MB + ROOT_MB) * 1024 * 1024 )) "$OUT.part"
printf 'label: dos\nstart=4MiB, size=%dMiB, type=c, bootable\nstart=%dMiB, type=83\n' "$FW_MB" $((4 + FW_MB)) | sfdisk -q "$OUT.part"
dd if="$WORK/fw.img" of="$OUT.part" bs=1M seek=4 conv=notrunc status=none
dd if="$WORK/root.img" of="$OUT.part" bs=1M seek=$((4 + FW_MB)) conv=notrunc status=none
mv "$OUT.part" "$OUT"
echo "built $OUT: $(du -m --apparent-size "$OUT" | cut -f1) MiB in $(( $(date +%s) - started )) s"
