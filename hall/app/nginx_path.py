"""Where Debian's nginx is (the front's, ``hall/app/front.py``), apart from the front itself: ``loto-hall doctor``
asks it from under the wiring (the pre-flight is handed to the web app there), which the front sits above."""

from __future__ import annotations

import os
import shutil

NGINX_PATHS = ("/usr/sbin/nginx", "/usr/local/sbin/nginx")


def nginx_binary() -> str | None:
    """Debian's nginx (``apt-get install nginx-light``), or ``None``."""
    found = shutil.which("nginx")
    return found or next((p for p in NGINX_PATHS if os.access(p, os.X_OK)), None)
