#!/bin/bash
# Boot the built image in qemu-system-aarch64 (the virt machine, the image's own kernel and initrd, the network
# forwarded from loopback only), wait for the hall to answer GET /api/state with "setup": true and /setup to be
# served (403 without the projector's code), print the boot-to-answer seconds; exit 0, or 1 on a timeout.
#     tools/image/boot-check.sh IMAGE [TIMEOUT_S]     # default 900 s (emulated, no KVM)
# Needs (Debian): qemu-system-arm mtools python3. The image is not changed: qemu boots a copy-on-write overlay.
set -euo pipefail
IMG="$(readlink -f "${1:?usage: boot-check.sh IMAGE [TIMEOUT_S]}")"
LIMIT="${2:-900}"
PORT="${LOTO_BOOT_PORT:-18080}"
WORK="$(mktemp -d)"; QEMU=""
cleanup() { [ -n "$QEMU" ] && kill "$QEMU" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT

# the kernel and initrd the image boots with: raspi-firmware's copies on the FAT partition (RASPIFIRM, at 4 MiB)
OFF=$((4 * 1024 * 1024))
mcopy -n -i "$IMG@@$OFF" ::vmlinuz "$WORK/vmlinuz"
mcopy -n -i "$IMG@@$OFF" ::initrd.img "$WORK/initrd.img"
qemu-img create -q -f qcow2 -F raw -b "$IMG" "$WORK/disk.qcow2" 8G

started=$(date +%s)
qemu-system-aarch64 -M virt -cpu cortex-a72 -smp 2 -m 2048 -nographic -monitor none -serial "file:$WORK/console.log" \
  -kernel "$WORK/vmlinuz" -initrd "$WORK/initrd.img" \
  -append "root=LABEL=RASPIROOT rw rootwait console=ttyAMA0 net.ifnames=0" \
  -drive "if=none,id=d0,file=$WORK/disk.qcow2,format=qcow2" -device virtio-blk-device,drive=d0 \
  -netdev "user,id=n0,hostfwd=tcp:127.0.0.1:$PORT-:8080" -device virtio-net-device,netdev=n0 &
QEMU=$!

answer() {  # answer PATH: the HTTP status and body of the hall's page, or nothing
  python3 -I - "http://127.0.0.1:$PORT$1" <<'PY' 2>/dev/null
import sys, urllib.request, urllib.error
try:
    r = urllib.request.urlopen(sys.argv[1], timeout=5); print(r.status); print(r.read().decode())
except urllib.error.HTTPError as e:
    print(e.code)
PY
}
while [ $(( $(date +%s) - started )) -lt "$LIMIT" ]; do
  kill -0 "$QEMU" 2>/dev/null || { echo "qemu stopped"; tail -n 30 "$WORK/console.log"; exit 1; }
  state="$(answer /api/state || true)"
  if [ "$(head -n1 <<<"$state")" = 200 ] && tr -d ' ' <<<"$state" | grep -q '"setup":true'; then
    setup="$(answer /setup | head -n1 || true)"
    if [ "$setup" = 403 ]; then
      echo "boot to answer: $(( $(date +%s) - started )) s (GET /api/state: setup mode; /setup without the code: 403)"
      exit 0
    fi
    echo "the hall answers, but /setup gave ${setup:-nothing} (403 expected)"; exit 1
  fi
  sleep 5
done
echo "no answer from the hall within $LIMIT s"; tail -n 30 "$WORK/console.log"; exit 1
