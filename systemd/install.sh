#!/bin/bash
# loto-hall on a Raspberry Pi: install or update, idempotent. Run from a checkout of the project:
#     sudo ./systemd/install.sh            # the hall service (+ the projector kiosk if --kiosk)
#     sudo ./systemd/install.sh --kiosk    # also Chromium in kiosk mode on the HDMI output (Pi OS Lite)
#     sudo ./systemd/install.sh --hotspot  # also the Pi as the hall's Wi-Fi ([network] in the config)
#     sudo ./systemd/install.sh --relays-only  # a second machine: only the phones' relays, for the Pi
#     ./systemd/install.sh --dry-run [...] # print every command and file it would change, change nothing
#     --wheelhouse DIR  install the hall from DIR's wheels (pip --no-index): nothing downloaded, no compiler needed
#     --no-config       leave /etc/loto-hall/config.toml out: the first start is setup mode (the phone, /setup)
#     --no-start        enable the units, start none (an image being built, tools/image/build.sh)
# What it does, step by step, is in docs/install-pi.md; nothing here is needed that the guide doesn't say.
# The program goes into its own venv (/opt/loto-hall/venv): Debian 12 / Pi OS Bookworm's Python refuses a
# system-wide pip install (PEP 668).
set -euo pipefail

KIOSK=0 HOTSPOT=0 DRY=0 RELAYS_ONLY=0 WHEELHOUSE="" NO_CONFIG=0 NO_START=0
while [ $# -gt 0 ]; do
  arg=$1; shift
  case "$arg" in
    --wheelhouse) [ $# -gt 0 ] || { echo "--wheelhouse needs a folder" >&2; exit 2; }
                  WHEELHOUSE="$(readlink -f "$1")"; shift
                  [ -d "$WHEELHOUSE" ] || { echo "no wheelhouse folder: $WHEELHOUSE" >&2; exit 2; } ;;
    --no-config) NO_CONFIG=1 ;;
    --no-start) NO_START=1 ;;
    --kiosk) KIOSK=1 ;;
    --hotspot) HOTSPOT=1 ;;
    --relays-only) RELAYS_ONLY=1 ;;
    --dry-run) DRY=1 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "unknown option: $arg" >&2; exit 2 ;;
  esac
done
[ "$DRY" -eq 1 ] || [ "$(id -u)" -eq 0 ] || { echo "run as root: sudo $0" >&2; exit 1; }

SRC="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
PREFIX=/opt/loto-hall
say() { printf '\n== %s\n' "$*"; }
# apt_need PKG...: with a wheelhouse (no internet), only the packages this machine lacks are asked of apt.
apt_need() {
  local missing=() p
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && { echo "   = $*"; return 0; }
  run apt-get install -y -q "${missing[@]}"
}
# start UNIT: restart it now, unless --no-start (the image's first boot starts it).
start() { [ "$NO_START" -eq 1 ] && { echo "   (--no-start) $1"; return 0; }; run systemctl restart "$1"; }
reload() { [ "$NO_START" -eq 1 ] || run systemctl daemon-reload; }
# run CMD...: the command, or with --dry-run its line. Read-only checks (id, getent, [ -e ]) always run,
# so the dry run shows what this very machine would get.
run() {
  if [ "$DRY" -eq 1 ]; then printf '   $'; printf ' %q' "$@"; printf '\n'; else "$@"; fi
}
# put PATH MODE [GROUP] < CONTENT: write the file when its content differs (with --dry-run: show it).
put() {
  local path=$1 mode=$2 group=${3:-root} content
  content="$(cat)"
  if [ -e "$path" ] && [ "$(cat "$path")" = "$content" ]; then echo "   = $path"; return; fi
  if [ "$DRY" -eq 1 ]; then printf '   file %s (%s):\n' "$path" "$mode"; printf '%s\n' "$content" | sed 's/^/   | /'; return; fi
  printf '%s\n' "$content" > "$path.new" && chmod "$mode" "$path.new" && chgrp "$group" "$path.new" && mv "$path.new" "$path"
  echo "   + $path"
}

say "Debian packages"
if [ -n "$WHEELHOUSE" ]; then  # offline: the wheels are built, no compiler; what is installed already is kept
  apt_need python3 python3-venv openssl espeak-ng
  [ "$KIOSK" -eq 0 ] || apt_need cage chromium
else
run apt-get update -q
run apt-get install -y -q python3 python3-venv python3-dev build-essential openssl
run apt-get install -y -q espeak-ng      # the hall's voice: each ball said by the projector ([speech], INTERFACE §11)
fi
if [ "$KIOSK" -eq 1 ] && [ -z "$WHEELHOUSE" ]; then
  run apt-get install -y -q cage || { echo "cage missing: use the desktop image (docs/install-pi.md)"; exit 1; }
  run apt-get install -y -q chromium-browser || run apt-get install -y -q chromium
fi

say "User loto-hall (groups dialout input lp plugdev)"
# plugdev made here (Debian's minimal systems have none) is noted, so that uninstall.sh takes it out again
getent group plugdev >/dev/null || { run groupadd --system plugdev; run mkdir -p "$PREFIX"; run touch "$PREFIX/made-plugdev"; }
id loto-hall >/dev/null 2>&1 || run useradd --system --home-dir /var/lib/loto-hall --no-create-home \
                                        --shell /usr/sbin/nologin loto-hall
run usermod -a -G dialout,input,lp,plugdev loto-hall

say "Program in $PREFIX/venv"
run mkdir -p "$PREFIX"
[ -x "$PREFIX/venv/bin/python" ] || run python3 -I -m venv "$PREFIX/venv"
if [ -n "$WHEELHOUSE" ]; then
  run "$PREFIX/venv/bin/pip" install -q --no-index --find-links "$WHEELHOUSE" --upgrade "loto-hall[pi]"
else
  run "$PREFIX/venv/bin/pip" install -q --upgrade pip
  run "$PREFIX/venv/bin/pip" install -q "$SRC[pi]"
fi
run mkdir -p "$PREFIX/docs" "$PREFIX/kiosk"
run cp "$SRC/docs/install-pi.md" "$SRC/docs/install-manual.md" "$PREFIX/docs/"
run install -m 0644 "$SRC/systemd/kiosk-wait.html" "$PREFIX/kiosk/"
run install -m 0755 "$SRC/systemd/kiosk.sh" "$PREFIX/kiosk/"

say "Configuration /etc/loto-hall/config.toml (kept if it exists)"
run install -d -m 0755 /etc/loto-hall
if [ "$NO_CONFIG" -eq 1 ]; then
  echo "   (--no-config) none written: the first start is setup mode (scan the projector's QR code)"
elif [ ! -e /etc/loto-hall/config.toml ]; then
  run install -m 0640 -g loto-hall "$SRC/systemd/config.example.toml" /etc/loto-hall/config.toml
  echo "   edit it now: sudo nano /etc/loto-hall/config.toml"
fi

say "udev rules: /dev/loto/ball-machine, printer, keypad, scanner"
run install -m 0644 "$SRC/systemd/99-loto-hall.rules" /etc/udev/rules.d/99-loto-hall.rules
run udevadm control --reload || true
run udevadm trigger || true

say "polkit: the service user may bring up the setup Wi-Fi « Loto-Setup » (NetworkManager), nothing else"
if [ -d /etc/polkit-1 ]; then
  run install -d -m 0755 /etc/polkit-1/rules.d
  run install -m 0644 "$SRC/systemd/50-loto-hall.rules" /etc/polkit-1/rules.d/50-loto-hall.rules
else
  echo "   (no polkit here: the first start's Wi-Fi needs it (Debian's polkitd package); over the LAN, setup needs nothing)"
fi

# [server] message_queue (INTERFACE §10): the config asks for Debian's Redis and nginx (docs/install-pi.md)
QUEUE=""
if [ -x "$PREFIX/venv/bin/python" ] && [ -r /etc/loto-hall/config.toml ]; then
  # -I: isolated, so that the hall of whatever folder this runs in (a checkout) is never the one imported as root
  QUEUE="$("$PREFIX/venv/bin/python" -I -c 'from hall.config import load_config
print(load_config("/etc/loto-hall/config.toml").server.message_queue)' 2>/dev/null || true)"
fi
if [ "$RELAYS_ONLY" -eq 1 ]; then
  say "The phones' relays alone (a second machine; [server] message_queue and core_url point at the Pi)"
  run install -m 0644 "$SRC/systemd/loto-hall-relays.service" /etc/systemd/system/loto-hall-relays.service
  reload
  run systemctl enable loto-hall-relays.service
  start loto-hall-relays.service
  say "Done"
  exit 0
fi
if [ -n "$QUEUE" ]; then
  say "More phones than one process: Redis (bound to localhost) and nginx, run by loto-hall serve"
  run apt-get install -y -q redis-server
  run apt-get install -y -q nginx-light || run apt-get install -y -q nginx
  # loto-hall serve runs nginx itself with its own file (/var/lib/loto-hall/front/nginx.conf): Debian's default
  # site must not hold port 80, which the hotspot sends to the hall.
  run systemctl disable --now nginx.service || true
  # Debian's redis.conf binds 127.0.0.1 -::1 with protected-mode on; a second machine needs the Pi's private
  # address there, by hand (docs/install-pi.md): its bind is never rewritten here.
  grep -Eq '^bind +127\.0\.0\.1' /etc/redis/redis.conf 2>/dev/null \
    || echo "   ! /etc/redis/redis.conf does not bind 127.0.0.1 only: check it (loto-hall doctor)"
  run systemctl enable --now redis-server.service
  # Redis on loopback answers every local account (the kiosk's too): a password, made once here, in a file of
  # Redis's own that redis.conf includes last, and in the hall's message_queue (redis://:PASSWORD@127.0.0.1…).
  # What the hall publishes is sealed with its own key anyway (queue.key); the password keeps strangers from
  # Redis itself (FLUSHALL, CLIENT KILL, SHUTDOWN). A queue given a password by hand is left as it is.
  OPEN_QUEUE="$("$PREFIX/venv/bin/python" -I -c 'from hall.config import load_config
from hall.net.values import queue_has_password, queue_is_local
q = load_config("/etc/loto-hall/config.toml").server.message_queue
print("yes" if q and queue_is_local(q) and not queue_has_password(q) else "")' 2>/dev/null || true)"
  if [ -n "$OPEN_QUEUE" ]; then
    PASS="$(sed -n 's/^requirepass \([0-9a-f]\{48\}\)$/\1/p' /etc/redis/loto-hall.conf 2>/dev/null || true)"
    if [ -z "$PASS" ]; then
      if [ "$DRY" -eq 1 ]; then PASS="(48-random-hex-digits)"; else PASS="$(openssl rand -hex 24)"; fi
    fi
    put /etc/redis/loto-hall.conf 0640 redis <<CONF
# Written by loto-hall's install.sh: Redis asks this password of every client (the hall's message_queue holds it).
requirepass $PASS
CONF
    grep -qx 'include /etc/redis/loto-hall.conf' /etc/redis/redis.conf 2>/dev/null \
      || run sh -c 'echo "include /etc/redis/loto-hall.conf" >> /etc/redis/redis.conf'
    run sed -i -E "s#^([[:space:]]*message_queue[[:space:]]*=[[:space:]]*\")redis://([^\"@]*\")#\\1redis://:$PASS@\\2#" \
      /etc/loto-hall/config.toml
    run systemctl restart redis-server.service
  fi
  run install -d -m 0755 /etc/systemd/system/loto-hall.service.d
  run install -m 0644 "$SRC/systemd/loto-hall-queue.conf" /etc/systemd/system/loto-hall.service.d/queue.conf
elif [ -e /etc/systemd/system/loto-hall.service.d/queue.conf ]; then
  run rm -f /etc/systemd/system/loto-hall.service.d/queue.conf
fi

say "systemd units"
run install -m 0644 "$SRC/systemd/loto-hall.service" /etc/systemd/system/loto-hall.service
reload
run systemctl enable loto-hall.service
start loto-hall.service

if [ "$KIOSK" -eq 1 ]; then
  say "Projector kiosk on tty1 (user loto-kiosk, in no group of the hall's)"
  id loto-kiosk >/dev/null 2>&1 || run useradd --system --home-dir /var/lib/loto-hall-kiosk --no-create-home \
                                          --shell /usr/sbin/nologin loto-kiosk
  # video/render: the GPU; input: keyboard and mouse for cage. Never loto-hall: the browser reads nothing of the
  # hall's data (its keys, its PINs); an older install put it there, taken out here.
  run usermod -a -G video,render,input loto-kiosk
  if id -nG loto-kiosk 2>/dev/null | tr ' ' '\n' | grep -qx loto-hall; then run gpasswd -d loto-kiosk loto-hall; fi
  put /etc/pam.d/loto-hall-kiosk 0644 <<'PAM'
auth     required pam_unix.so nullok
account  required pam_unix.so
session  required pam_unix.so
session  required pam_systemd.so
PAM
  [ -e /etc/loto-hall/kiosk.env ] || put /etc/loto-hall/kiosk.env 0644 <<'ENV'
# The projector page, on this Pi (the kiosk reaches nothing else). With [server] tls = true:
# LOTO_KIOSK_URL=http://localhost:8081/ ([server] local_port)
LOTO_KIOSK_URL=http://localhost:8080/
ENV
  run install -m 0644 "$SRC/systemd/loto-hall-kiosk.service" /etc/systemd/system/loto-hall-kiosk.service
  reload
  run systemctl set-default graphical.target
  run systemctl enable loto-hall-kiosk.service
  start loto-hall-kiosk.service
fi

if [ "$HOTSPOT" -eq 1 ] && [ "$NO_CONFIG" -eq 1 ]; then
  say "The hall's Wi-Fi: set up from the phone (--no-config: no [network] yet)"
elif [ "$HOTSPOT" -eq 1 ]; then
  say "The hall's Wi-Fi: the Pi as access point ([network] in /etc/loto-hall/config.toml)"
  if [ "$DRY" -eq 1 ] && [ -x "$PREFIX/venv/bin/loto-hall" ] && [ -r /etc/loto-hall/config.toml ]; then
    "$PREFIX/venv/bin/loto-hall" network hotspot --config /etc/loto-hall/config.toml --dry-run | sed 's/^/   /'
  else
    run "$PREFIX/venv/bin/loto-hall" network hotspot --config /etc/loto-hall/config.toml
  fi
fi

say "Done"
[ "$DRY" -eq 1 ] && { echo "(--dry-run: nothing was changed)"; exit 0; }
[ "$NO_START" -eq 1 ] && { echo "(--no-start: the units start at the next boot)"; exit 0; }
systemctl --no-pager status loto-hall.service | head -n 5 || true
echo "Pages: http://$(hostname).local:8080/  (projector), /speaker, /controle, /lots, /admin"
echo "PINs: sudo journalctl -u loto-hall | grep PIN   (or set them in /etc/loto-hall/config.toml)"
[ "$HOTSPOT" -eq 1 ] && echo "Wi-Fi check: $PREFIX/venv/bin/loto-hall network doctor --config /etc/loto-hall/config.toml"
[ -n "$QUEUE" ] && echo "Queue and relays check: $PREFIX/venv/bin/loto-hall doctor --config /etc/loto-hall/config.toml"
exit 0
