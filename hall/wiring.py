"""``loto-hall serve``: wires the hall, the devices, the printer and the web together (composition root)."""
from __future__ import annotations

import logging
import signal
import tempfile
from pathlib import Path

from hall.config import load_config
from hall.runtime import Runtime

log = logging.getLogger("loto-hall")


def serve(args) -> int:
    """Run the hall until SIGTERM/SIGINT; returns 0 on a clean stop."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s", force=True)
    overrides: dict = {}
    if args.data_dir:
        overrides.setdefault("hall", {})["data_dir"] = args.data_dir
    elif args.demo:
        overrides.setdefault("hall", {})["data_dir"] = tempfile.mkdtemp(prefix="loto-hall-demo-")
    if args.host:
        overrides.setdefault("server", {})["host"] = args.host
    if args.port:
        overrides.setdefault("server", {})["port"] = args.port
    config = load_config(args.config, overrides)
    runtime = Runtime.open(config)
    if args.demo:
        from hall.demo import prepare_demo
        prepare_demo(runtime)

    from display.app import create_app
    from drivers.inputs import start_inputs
    from drivers.printer import start_printing

    runtime.services += start_inputs(runtime.hall, config, demo=args.demo, data_dir=runtime.data_dir,
                                     interval_s=args.interval)
    runtime.services += start_printing(runtime.hall, config, demo=args.demo, data_dir=runtime.data_dir)
    app, socketio = create_app(runtime.hall, config)
    runtime.start_services()

    def stop(signum, frame):
        log.info("signal %s: arrêt propre", signum)
        socketio.stop()

    signal.signal(signal.SIGTERM, stop)
    log.info("données : %s", Path(config.hall.data_dir).resolve())
    try:
        socketio.run(app, host=config.server.host, port=config.server.port, allow_unsafe_werkzeug=True,
                     use_reloader=False, log_output=False)
    except KeyboardInterrupt:
        pass
    finally:
        runtime.close()
    return 0
