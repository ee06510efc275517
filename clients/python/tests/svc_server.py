"""Starts real svc servers for the tests: ``node <repo>/bin/svc.js serve`` on a free loopback port
(or the ``bin/svc.js`` named by ``$SVC_BIN``), and finds free ports where nothing listens."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

REPOSITORY_ROOT = Path(__file__).resolve().parents[3]
START_TIMEOUT_S = 30.0
STOP_TIMEOUT_S = 10.0
READY_MESSAGE = "svc server listening"


def svc_bin() -> Path:
    return Path(os.environ.get("SVC_BIN") or REPOSITORY_ROOT / "bin" / "svc.js")


@dataclass
class SvcServer:
    process: subprocess.Popen[str]
    port: int
    log: list[str] = field(default_factory=list)

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(STOP_TIMEOUT_S)


def start_server(extra_args: Sequence[str] = (), env: Mapping[str, str] | None = None) -> SvcServer:
    node = shutil.which("node")
    if node is None:
        raise RuntimeError("node is not on PATH; the tests start the svc server with it")
    binary = svc_bin()
    if not binary.is_file():
        raise RuntimeError(f"{binary} does not exist: build the repository (npm run build) or set SVC_BIN")
    command = [node, str(binary), "serve", "--host", "127.0.0.1", "--port", "0", "--metrics-port", "0", "--storage", "memory"]
    process = subprocess.Popen(
        [*command, *extra_args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "LOG_LEVEL": "info", **(env or {})},
    )
    assert process.stdout is not None
    ready = threading.Event()
    server = SvcServer(process=process, port=0)
    threading.Thread(target=_read_log, args=(process.stdout, server, ready), daemon=True).start()
    if not ready.wait(START_TIMEOUT_S) or server.port == 0:
        server.stop()
        raise RuntimeError(f"svc server did not start within {START_TIMEOUT_S} s:\n" + "\n".join(server.log[-20:]))
    return server


def _read_log(stream: IO[str], server: SvcServer, ready: threading.Event) -> None:
    # Reads until the process ends, so its pipe never fills up.
    for line in stream:
        server.log.append(line.rstrip())
        if not ready.is_set():
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if isinstance(entry, dict) and entry.get("msg") == READY_MESSAGE:
                server.port = int(entry["port"])
                ready.set()
    ready.set()


def closed_port() -> int:
    """A loopback port where nothing listens (bound once, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def wait_until(condition: Callable[[], bool], timeout_s: float, interval_s: float = 0.02) -> bool:
    """Polls ``condition`` until it holds or ``timeout_s`` passed; the result of the last poll."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(interval_s)
    return condition()



