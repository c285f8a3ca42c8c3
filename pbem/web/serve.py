"""Running the page: a socket on 127.0.0.1, uvicorn on it, the browser opened, the lock file kept, Ctrl-C to stop."""

from __future__ import annotations

import secrets
import signal
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Callable

from pbem.errors import BadInput
from pbem.web import lock
from pbem.web.session import Sitting


def bind(port: int) -> socket.socket:
    """A listening socket on the loopback address (``port`` 0: any free port)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(("127.0.0.1", port))
    except OSError as exc:
        sock.close()
        raise BadInput(f"cannot listen on 127.0.0.1:{port} ({exc.strerror or exc})", field="--port",
                       hint="give another --port, or leave it out to take any free port") from exc
    sock.listen(64)
    sock.set_inheritable(True)
    return sock


def serve(sitting: Sitting, port: int, open_browser: bool, say: Callable[[str], None]) -> None:
    """Serve the page until Ctrl-C; the address goes first to stdout, then the browser is opened (unless told not to)."""
    import uvicorn

    from pbem.web.app import build_app

    sock = bind(port)
    token = secrets.token_urlsafe(18)
    url = f"http://127.0.0.1:{sock.getsockname()[1]}/{token}/"
    app = build_app(sitting, token)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off", access_log=False))
    lock.take(sitting.turn_path, url)
    taken = _stop_on_signal(server)
    try:
        try:
            say(url)
            sys.stdout.flush()
            say(f"pbem play: {sitting.side} orders for turn file {sitting.turn.seq}, saved to {sitting.orders_path}; "
                "only this address drives the page (it stays on this computer); Ctrl-C to stop")
            if open_browser:
                threading.Thread(target=_open_when_up, args=(server, url), daemon=True).start()
            server.run(sockets=[sock])
        except KeyboardInterrupt:
            # Ctrl-C once the address is out — before uvicorn took the signal over, or after it shut down and passed
            # the signal on: the player asked to stop, nothing failed
            pass
    finally:
        for sig, handler in taken.items():
            signal.signal(sig, handler)
        sock.close()
        lock.release(sitting.turn_path)
    say("pbem play: stopped")


def _stop_on_signal(server) -> dict:
    """Ctrl-C (and the other signals uvicorn stops on) asks ``server`` to stop from the moment the address is printed,
    not only once uvicorn has taken the signals over: a Ctrl-C in between was lost in an import uvicorn makes as it
    starts, and the page never stopped.  Returns the handlers to put back (none off the main thread)."""
    from uvicorn.server import HANDLED_SIGNALS

    if threading.current_thread() is not threading.main_thread():
        return {}
    return {sig: signal.signal(sig, server.handle_exit) for sig in HANDLED_SIGNALS}


def _open_when_up(server, url: str) -> None:
    import webbrowser

    for _ in range(100):
        if server.started:
            break
        time.sleep(0.05)
    webbrowser.open(url)


def play(turn: Path, identity_opener: Callable[[], object], orders: Path | None, port: int, open_browser: bool, say) -> None:
    """``pbem play``: refuse a second page on the same turn file, open the key (the passphrase is asked here, in the terminal), serve."""
    lock.refuse_second(turn)
    sitting = Sitting.open(turn, identity_opener(), orders)
    serve(sitting, port, open_browser, say)
