"""What the core and the relays (the processes carrying the phones' sockets) say to each other through Redis.

INTERFACE §10. One channel carries, in order: the journal's public events (``ev``, each with its ``seq``), the
other public emissions (``emit``: a mini-game room's audience view, the projector's ``screen``) and the core's
heartbeat (``hb``, every second, with the last ``seq`` published), and the standings of the cartons the phones follow
(``cartons``: one message per record that changed some, each standing with its follow key, ``display/cartons.py``). The beat is also written in a key, read by
each relay over an ordinary connection: a relay whose listener stops hearing what the key says the core sent
is deaf, and is replaced. Each relay writes its own report (what it last heard, how many phones it carries)
in one hash, read by the core for the speaker's console and ``/admin``.

JSON only, never pickle: python-socketio's Redis manager unpickles whatever arrives on its channel, and a queue
on the hall's network (a second machine) is reachable by the phones on that network. And sealed with the hall's
queue key, fresh, its ``seq`` checked against the core (``relay_seal.py``): Redis answers any local account.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import redis

CHANNEL = "loto-hall:public"
BEAT_KEY = "loto-hall:beat"  # the core's last beat, living DEAF_S: present means the core beats now
RELAYS_KEY = "loto-hall:relays"  # relay id → its last report (JSON)
PATH = "live/socket.io"  # the relays' Socket.IO path (the front sends it to them)

BEAT_S = 1.0  # the core beats this often
DEAF_S = 3.5  # a relay that heard nothing this long while the beat key lives is deaf (found in ~4–5 s)
REPORT_S = 1.0  # a relay reports this often
BUSY_MAX_S = 20.0  # a listener busy with one message (a resync: a fetch, ~500 phones) this long is deaf
GONE_S = 6.0  # a relay whose report has not changed this long is gone (stopped, or killed)
FORGET_S = 120.0  # … and forgotten this long after
CONNECT_TIMEOUT_S = 0.5  # Redis away must never hold anything long: a refused connection is immediate anyway
READ_TIMEOUT_S = 2.0


KINDS = (
    "ev",
    "emit",
    "hb",
    "cartons",
)  # the channel's messages: an event, another emission, the core's beat, standings


def encode(message: dict) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def client(url: str, *, listener: bool = False) -> redis.Redis:
    """A redis-py client that fails fast and never retries behind our back: a dropped subscription must be seen
    (redis-py would otherwise reconnect and subscribe again silently, losing what was published meanwhile). The
    listener's reads bytes (a message is checked on its exact bytes, and a stranger's invalid UTF-8 once ended the
    listening); the others' decode, replacing what is not UTF-8 (a sealed value is UTF-8: a replaced one fails its
    seal)."""
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    return redis.Redis.from_url(
        url,
        socket_connect_timeout=CONNECT_TIMEOUT_S,
        health_check_interval=0,
        socket_timeout=READ_TIMEOUT_S + (2.0 if listener else 0.0),
        retry=Retry(NoBackoff(), 0),
        decode_responses=not listener,
        encoding_errors="replace",
    )
