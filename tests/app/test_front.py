"""The front's nginx.conf (hall/app/front.py): one upstream server per relay, each on its own port, dealt by
``least_conn`` with the counts shared between nginx's workers (``zone``), the laptops' relays beside them; and nginx
itself accepts the file."""

from __future__ import annotations

import subprocess

from hall.app.front import nginx_command, write_front
from hall.config import parse_config
from tests.app.relay_parts import NGINX


def test_each_relay_is_a_server_of_the_upstream_dealt_by_least_conn(tmp_path):
    config = parse_config(
        {
            "hall": {"data_dir": str(tmp_path)},
            "server": {
                "message_queue": "redis://127.0.0.1:6379/0",
                "socket_workers": 3,
                "socket_port": 8090,
                "socket_peers": ["10.42.0.20:8090", "10.42.0.20:8091"],
            },
        }
    )
    prefix, conf = write_front(config, "live/socket.io")
    text = conf.read_text()
    upstream = text[text.index("upstream loto_relays") :].split("}", 1)[0]
    servers = [line.split()[1] for line in upstream.splitlines() if line.strip().startswith("server ")]
    assert servers == ["127.0.0.1:8090", "127.0.0.1:8091", "127.0.0.1:8092", "10.42.0.20:8090", "10.42.0.20:8091"]
    assert "least_conn;" in upstream and "zone loto_relays" in upstream
    if NGINX is not None:
        check = subprocess.run([*nginx_command(NGINX, prefix, conf), "-t", "-q"], capture_output=True, text=True)
        assert check.returncode == 0, check.stderr
