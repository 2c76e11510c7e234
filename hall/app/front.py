"""The front: Debian's nginx on the hall's one address and port, when the hall has relays (INTERFACE §10).

Phones, screens and staff keep ``host:port``. nginx sends ``/live/socket.io/`` (the relays' Socket.IO path, asked
by the phones' pages) to the relays, WebSocket upgraded — each relay is one server of the upstream (its own port,
``relays.relay_ports``, and each of ``socket_peers``), dealt the phones by ``least_conn``: the relay carrying the
fewest phones takes the next one, so they spread evenly — and everything else (pages, API, staff and projector
sockets) to the core on 127.0.0.1. It tells each upstream the phone's address (``X-Real-IP``) and the scheme
(``X-Forwarded-Proto``: Engine.IO's same-origin check compares the page's ``https://`` origin with it), keeps the
per-address cap of open connections (``limit_conn``) and the header timeout the gevent worker kept alone before,
and buffers nothing to disk (the card CSV upload and the PDFs stream through). ``loto-hall serve`` writes this file
in the data folder and runs nginx itself in the foreground: the same under systemd, in a terminal and in the tests.
"""

from __future__ import annotations

import os
import pwd
import resource
from pathlib import Path

from hall.app.relays import relay_ports
from hall.app.wiring import bind_host, tls_files
from hall.config import Config
from hall.record import durable

FRONT_DIR = "front"
MAX_BODY = "70m"  # display.limits.MAX_UPLOAD_BYTES (a card CSV of ~60 000 cartons), with room
RESTARTING = "La salle redémarre : reconnexion dans un instant."  # display.errors "unavailable", said by nginx
UPSTREAM_TIMEOUT_S = 3600  # a websocket idles between balls: the pings keep it, not nginx's read timeout


def _locations(relay_path: str) -> str:
    return f"""
        location /{relay_path}/ {{
            proxy_pass http://loto_relays;
            proxy_connect_timeout 2s;
            proxy_next_upstream error timeout;
        }}
        location / {{
            proxy_pass http://loto_core;
            error_page 502 504 = @restarting;
        }}
        location @restarting {{
            default_type application/json;
            add_header Retry-After 2 always;
            return 503 '{{"error": "unavailable", "message": "{RESTARTING}"}}';
        }}"""


def nginx_conf(config: Config, prefix: Path, relay_path: str) -> str:
    """The whole nginx.conf for this config (the relays' path from ``display.relay_wire.PATH``)."""
    server = config.server
    tmp = prefix / "tmp"
    relays = [f"127.0.0.1:{port}" for port in relay_ports(config)] if server.socket_workers else []
    relays += list(server.socket_peers)
    upstream_relays = "\n".join(f"        server {r} max_fails=1 fail_timeout=2s;" for r in relays)
    listen = f"{bind_host(server.host)}:{server.port}"
    tls = tls_files(config)
    ssl = ""
    if tls is not None:
        listen += " ssl"
        ssl = f"\n        ssl_certificate {tls[0]};\n        ssl_certificate_key {tls[1]};"
    files = min(65536, resource.getrlimit(resource.RLIMIT_NOFILE)[1])
    user = f"user {pwd.getpwuid(os.geteuid()).pw_name};\n" if os.geteuid() == 0 else ""
    body = _locations(relay_path)
    local = ""
    if tls is None and server.staff_port:  # the staff's pages over HTTPS (display/staff_tls.py)
        from display.tls import ensure_certificate, hall_names

        staff = ensure_certificate(config.data_dir, config.hall.name, hall_names(config)).ssl_context
        local = f"""
    server {{
        listen {bind_host(server.host)}:{server.staff_port} ssl;
        ssl_certificate {staff[0]};
        ssl_certificate_key {staff[1]};
        limit_conn per_address {server.max_connections_per_address};{body}
    }}"""
    if tls is not None and server.local_port:
        local = f"""
    server {{
        listen 127.0.0.1:{server.local_port};
        limit_conn per_address {server.max_connections_per_address};{body}
    }}"""
    header_s = max(1, round(server.header_timeout_s))
    return f"""# Written by `loto-hall serve` from its config at each start: edit the config, not this file.
{user}daemon off;
worker_processes auto;
worker_rlimit_nofile {files};
pid {prefix}/nginx.pid;
error_log stderr warn;
events {{
    worker_connections 16384;
}}
http {{
    access_log off;
    server_tokens off;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    client_max_body_size {MAX_BODY};
    client_header_timeout {header_s}s;
    keepalive_timeout {header_s}s;
    limit_conn_zone $binary_remote_addr zone=per_address:4m;
    limit_conn_status 429;
    map $http_upgrade $connection_upgrade {{
        default upgrade;
        '' '';
    }}
    proxy_http_version 1.1;
    proxy_set_header Host $http_host;
    proxy_set_header X-Real-IP $remote_addr;
    proxy_set_header X-Forwarded-Proto $scheme;
    proxy_set_header Upgrade $http_upgrade;
    proxy_set_header Connection $connection_upgrade;
    proxy_buffering off;
    proxy_request_buffering off;
    proxy_read_timeout {UPSTREAM_TIMEOUT_S}s;
    proxy_send_timeout {UPSTREAM_TIMEOUT_S}s;
    upstream loto_core {{
        server 127.0.0.1:{server.core_port};
        keepalive 32;
    }}
    upstream loto_relays {{
        zone loto_relays 64k;
        least_conn;
{upstream_relays}
    }}
    server {{
        listen {listen};{ssl}
        limit_conn per_address {server.max_connections_per_address};{body}
    }}{local}
}}
"""


def write_front(config: Config, relay_path: str) -> tuple[Path, Path]:
    """Write nginx.conf under the data folder; returns (prefix, conf)."""
    prefix = (config.data_dir / FRONT_DIR).resolve()
    for sub in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (prefix / "tmp" / sub).mkdir(parents=True, exist_ok=True)
    conf = prefix / "nginx.conf"
    durable.write_file(conf, nginx_conf(config, prefix, relay_path))
    return prefix, conf


def nginx_command(binary: str, prefix: Path, conf: Path) -> list[str]:
    return [binary, "-e", "stderr", "-p", str(prefix), "-c", str(conf)]
