"""Print one of the README's two set-up commands, so that CI runs exactly what a newcomer copies.

    python3 .ci/readme_commands.py serve   # the first command (runs the hall)
    python3 .ci/readme_commands.py test    # the second command (runs the tests)

The commands are the ``sh`` blocks under "## Set-up: the two commands"; anything but exactly two
one-line blocks there is an error, so the README and CI cannot drift apart silently.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"
SECTION = "## Set-up: the two commands"


def setup_commands(text: str) -> tuple[str, str]:
    """The (serve, test) commands of the README's set-up section; raises ``ValueError`` if it is not two lines."""
    start = text.index(SECTION)
    end = text.find("\n## ", start + len(SECTION))
    section = text[start : end if end >= 0 else None]
    blocks = re.findall(r"^```sh\n(.*?)^```$", section, flags=re.M | re.S)
    commands = [b.strip() for b in blocks]
    if len(commands) != 2 or any("\n" in c or not c for c in commands):
        raise ValueError(f"{SECTION!r} must hold exactly two one-line ```sh blocks, found {commands!r}")
    return commands[0], commands[1]


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[1] not in ("serve", "test"):
        print(__doc__, file=sys.stderr)
        return 2
    serve, test = setup_commands(README.read_text(encoding="utf-8"))
    print(serve if argv[1] == "serve" else test)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
