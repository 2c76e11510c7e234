#!/bin/bash
# loto-hall on a Raspberry Pi: install or update, idempotent. Run from a checkout of the project:
#     sudo ./systemd/install.sh            # the hall service (+ the projector kiosk if --kiosk)
#     sudo ./systemd/install.sh --kiosk    # also Chromium in kiosk mode on the HDMI output (Pi OS Lite)
# What it does, step by step, is in docs/install-pi.md; nothing here is needed that the guide doesn't say.
set -euo pipefail

KIOSK=0
for arg in "$@"; do
  case "$arg" in
    --kiosk) KIOSK=1 ;;
    -h|--help) sed -n '2,5p' "$0"; exit 0 ;;
    *) echo "unknown option: $arg" >&2; exit 2 ;;
  esac
done
[ "$(id -u)" -eq 0 ] || { echo "run as root: sudo $0 $*" >&2; exit 1; }

SRC="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
PREFIX=/opt/loto-hall
say() { printf '\n== %s\n' "$*"; }

say "Debian packages"
apt-get update -q
apt-get install -y -q python3 python3-venv python3-dev build-essential openssl
[ "$KIOSK" -eq 1 ] && { apt-get install -y -q cage || { echo "cage missing: use the desktop image (docs/install-pi.md)"; exit 1; };
                        apt-get install -y -q chromium-browser || apt-get install -y -q chromium; }

say "User loto-hall (groups dialout input lp plugdev)"
getent group plugdev >/dev/null || groupadd --system plugdev
id loto-hall >/dev/null 2>&1 || useradd --system --home-dir /var/lib/loto-hall --no-create-home \
                                        --shell /usr/sbin/nologin loto-hall
usermod -a -G dialout,input,lp,plugdev loto-hall

say "Program in $PREFIX/venv"
mkdir -p "$PREFIX"
[ -x "$PREFIX/venv/bin/python" ] || python3 -m venv "$PREFIX/venv"
"$PREFIX/venv/bin/pip" install -q --upgrade pip
"$PREFIX/venv/bin/pip" install -q "$SRC[pi]"
mkdir -p "$PREFIX/docs" "$PREFIX/kiosk"
cp "$SRC/docs/install-pi.md" "$PREFIX/docs/"
install -m 0644 "$SRC/systemd/kiosk-wait.html" "$PREFIX/kiosk/"
install -m 0755 "$SRC/systemd/kiosk.sh" "$PREFIX/kiosk/"

say "Configuration /etc/loto-hall/config.toml (kept if it exists)"
install -d -m 0755 /etc/loto-hall
if [ ! -e /etc/loto-hall/config.toml ]; then
  install -m 0640 -g loto-hall "$SRC/systemd/config.example.toml" /etc/loto-hall/config.toml
  echo "   edit it now: sudo nano /etc/loto-hall/config.toml"
fi

say "udev rules: /dev/loto/ball-machine, printer, keypad, scanner"
install -m 0644 "$SRC/systemd/99-loto-hall.rules" /etc/udev/rules.d/99-loto-hall.rules
udevadm control --reload || true
udevadm trigger || true

say "systemd units"
install -m 0644 "$SRC/systemd/loto-hall.service" /etc/systemd/system/loto-hall.service
systemctl daemon-reload
systemctl enable loto-hall.service
systemctl restart loto-hall.service

if [ "$KIOSK" -eq 1 ]; then
  say "Projector kiosk on tty1 (user loto-kiosk)"
  id loto-kiosk >/dev/null 2>&1 || useradd --create-home --shell /usr/sbin/nologin loto-kiosk
  # video/render: the GPU; input: keyboard and mouse for cage; loto-hall: read the TLS certificate to pin it.
  usermod -a -G video,render,input,loto-hall loto-kiosk
  cat > /etc/pam.d/loto-hall-kiosk <<'PAM'
auth     required pam_unix.so nullok
account  required pam_unix.so
session  required pam_unix.so
session  required pam_systemd.so
PAM
  [ -e /etc/loto-hall/kiosk.env ] || cat > /etc/loto-hall/kiosk.env <<'ENV'
# The projector page. With [server] tls = true: LOTO_KIOSK_URL=http://localhost:8081/ ([server] local_port)
LOTO_KIOSK_URL=http://localhost:8080/
ENV
  install -m 0644 "$SRC/systemd/loto-hall-kiosk.service" /etc/systemd/system/loto-hall-kiosk.service
  systemctl daemon-reload
  systemctl set-default graphical.target
  systemctl enable loto-hall-kiosk.service
  systemctl restart loto-hall-kiosk.service
fi

say "Done"
systemctl --no-pager status loto-hall.service | head -n 5 || true
echo "Pages: http://$(hostname).local:8080/  (projector), /speaker, /controle, /lots, /admin"
echo "PINs: sudo journalctl -u loto-hall | grep PIN   (or set them in /etc/loto-hall/config.toml)"
