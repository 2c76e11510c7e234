#!/bin/bash
# loto-hall: take the hall off this machine, leaving nothing of install.sh's behind.
#     sudo ./systemd/uninstall.sh           # units, accounts, /opt/loto-hall, udev rules, PAM file; the data are kept
#     sudo ./systemd/uninstall.sh --purge   # also the hall's data and configuration (journal, keys, PINs): gone
# Debian's packages (python3, espeak-ng, chromium, cage, redis, nginx) stay: other programs may use them.
set -euo pipefail
PURGE=0
for arg in "$@"; do
  case "$arg" in
    --purge) PURGE=1 ;;
    -h|--help) sed -n '2,5p' "$0"; exit 0 ;;
    *) echo "unknown option: $arg" >&2; exit 2 ;;
  esac
done
[ "$(id -u)" -eq 0 ] || { echo "run as root: sudo $0" >&2; exit 1; }
say() { printf '\n== %s\n' "$*"; }
booted() { [ -d /run/systemd/system ]; }

UNITS=(loto-hall-kiosk.service loto-hall-relays.service loto-hall.service)
say "systemd units"
for u in "${UNITS[@]}"; do
  if booted; then systemctl disable --now "$u" 2>/dev/null || true; else systemctl disable "$u" 2>/dev/null || true; fi
  rm -f "/etc/systemd/system/$u"
done
rm -rf /etc/systemd/system/loto-hall.service.d
booted && systemctl daemon-reload || true

say "udev rules, polkit rule, PAM file, Redis password"
rm -f /etc/udev/rules.d/99-loto-hall.rules /etc/polkit-1/rules.d/50-loto-hall.rules /etc/pam.d/loto-hall-kiosk
if [ -e /etc/redis/loto-hall.conf ]; then
  rm -f /etc/redis/loto-hall.conf
  sed -i '/^include \/etc\/redis\/loto-hall\.conf$/d' /etc/redis/redis.conf 2>/dev/null || true
fi
booted && { udevadm control --reload 2>/dev/null || true; }

MADE_PLUGDEV=0
[ -e /opt/loto-hall/made-plugdev ] && MADE_PLUGDEV=1
say "Program /opt/loto-hall"
rm -rf /opt/loto-hall

say "Accounts loto-hall, loto-kiosk"
for u in loto-kiosk loto-hall; do
  if id "$u" >/dev/null 2>&1; then userdel "$u"; fi
  if getent group "$u" >/dev/null; then groupdel "$u"; fi
done
if [ "$MADE_PLUGDEV" -eq 1 ] && getent group plugdev >/dev/null; then groupdel plugdev; fi  # install.sh made it

if [ "$PURGE" -eq 1 ]; then
  say "Data and configuration (--purge)"
  rm -rf /var/lib/loto-hall /var/lib/loto-hall-kiosk /etc/loto-hall
  rm -rf /var/lib/private/loto-hall /var/lib/private/loto-hall-kiosk
else
  echo "   kept: /var/lib/loto-hall, /etc/loto-hall (the journal, keys, PINs): --purge removes them"
fi
say "Done"
