#!/bin/sh
# loto-hall projector: Chromium in kiosk mode, started inside cage by loto-hall-kiosk.service.
# Opens kiosk-wait.html, which retries until the hall answers and then opens LOTO_KIOSK_URL.
#   LOTO_KIOSK_URL   the projector page (default http://localhost:8080/); with [server] tls = true,
#                    http://localhost:8081/ ([server] local_port), or https://localhost:8080/ with the pin below
#   LOTO_TLS_CERT    the hall's certificate, pinned for https (default /var/lib/loto-hall-kiosk/tls-cert.pem: the
#                    kiosk reads nothing of the hall's folder, so copy the public certificate there by hand)
# Set them in /etc/loto-hall/kiosk.env.
set -eu

URL="${LOTO_KIOSK_URL:-http://localhost:8080/}"
CERT="${LOTO_TLS_CERT:-/var/lib/loto-hall-kiosk/tls-cert.pem}"
HERE="$(dirname "$(readlink -f "$0")")"
WAIT="file://$HERE/kiosk-wait.html#$URL"

BROWSER="$(command -v chromium-browser || command -v chromium || true)"
[ -n "$BROWSER" ] || { echo "loto-hall-kiosk: chromium not installed (apt install chromium-browser)" >&2; exit 1; }

set -- --kiosk --noerrdialogs --disable-session-crashed-bubble --no-first-run --password-store=basic \
       --autoplay-policy=no-user-gesture-required --check-for-update-interval=31536000 --lang=fr \
       --disable-features=Translate --overscroll-history-navigation=0 --disable-pinch \
       --ozone-platform=wayland --user-data-dir="${HOME:-/tmp}/.config/loto-hall-kiosk"
# (HOME: the unit's StateDirectory, /var/lib/loto-hall-kiosk, the one folder it may write)

case "$URL" in
  https://*)
    # Trust exactly the hall's self-signed certificate (its public key), nothing else.
    if [ -r "$CERT" ]; then
      SPKI="$(openssl x509 -in "$CERT" -pubkey -noout | openssl pkey -pubin -outform der \
              | openssl dgst -sha256 -binary | openssl enc -base64)"
      set -- "$@" --ignore-certificate-errors-spki-list="$SPKI"
    else
      echo "loto-hall-kiosk: $CERT unreadable: the https page will show a certificate warning" >&2
    fi ;;
esac

exec "$BROWSER" "$@" "$WAIT"
