"""The yardstick of ``bench_serial_latency.py --sockets``: a bare Flask-SocketIO server reading a pty.

    python bench/bare_socketio.py --port P --tty /dev/pts/N

The same server as the hall's (gunicorn, one gevent worker, simple-websocket) and the same reading (pyserial on
the pty, a line a ball), but nothing of the hall: no journal, no fsync, no shaping, no rooms; each ball is
emitted to every client as ``draw`` ``{"number", "seq"}``. What the hall adds to a ball on its way to a screen
is the difference between the two.
"""

from __future__ import annotations

import argparse
import re
from typing import Any

from gunicorn.app.base import BaseApplication


def make_app(tty: str) -> Any:
    import serial
    from flask import Flask
    from flask_socketio import SocketIO

    app = Flask(__name__)
    socketio = SocketIO(app, async_mode="gevent")

    def read() -> None:
        port = serial.serial_for_url(tty, timeout=None)
        seq = 0
        while True:
            line = port.readline()
            found = re.search(rb"(\d{1,2})", line)
            if found:
                seq += 1
                socketio.emit("draw", {"number": int(found.group(1)), "seq": seq})

    socketio.start_background_task(read)
    return app


class Bare(BaseApplication):
    def __init__(self, port: int, tty: str):
        self.port, self.tty = port, tty
        super().__init__()

    def load_config(self) -> None:
        for key, value in {
            "bind": [f"127.0.0.1:{self.port}"],
            "workers": 1,
            "worker_class": "gevent",
            "control_socket_disable": True,
            "loglevel": "warning",
        }.items():
            self.cfg.set(key, value)

    def load(self) -> Any:
        return make_app(self.tty)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--tty", required=True)
    args = ap.parse_args()
    Bare(args.port, args.tty).run()
