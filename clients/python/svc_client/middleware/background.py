"""The background worker of the middleware: a bounded queue and one daemon thread.

Submitting never blocks: a full queue refuses the job and the caller counts it as dropped. The
worker takes what is waiting in batches, so a burst of exchanges is validated over one stream.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

JobT = TypeVar("JobT")

_STOP = object()
JOIN_TIMEOUT_S = 5.0


class BackgroundWorker(Generic[JobT]):
    def __init__(self, process: Callable[[Sequence[JobT]], None], *, max_queue_size: int, max_batch: int, name: str) -> None:
        self._process = process
        self._queue: queue.Queue[object] = queue.Queue(maxsize=max_queue_size)
        self._max_batch = max_batch
        self._name = name
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)
        self._unfinished = 0
        self._closed = False

    def submit(self, job: JobT) -> bool:
        """Queues the job; False when the queue is full or the worker is closed."""
        with self._lock:
            if self._closed:
                return False
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
                self._thread.start()
            try:
                self._queue.put_nowait(job)
            except queue.Full:
                return False
            self._unfinished += 1
            return True

    @property
    def unfinished(self) -> int:
        """Jobs waiting or being processed."""
        with self._lock:
            return self._unfinished

    def flush(self, timeout: float) -> bool:
        """Waits until every job submitted so far is processed; False when ``timeout`` passed first."""
        deadline = time.monotonic() + timeout
        with self._idle:
            while self._unfinished > 0:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._idle.wait(left)
            return True

    def close(self, timeout: float = JOIN_TIMEOUT_S) -> None:
        """Processes what is queued, then stops the thread; idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            thread = self._thread
        if thread is not None:
            self._queue.put(_STOP)  # blocks only while the queue is full, and the worker is draining it
            thread.join(timeout)

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is _STOP:
                return
            batch: list[JobT] = [first]  # type: ignore[list-item]
            stop = False
            while len(batch) < self._max_batch:
                try:
                    job = self._queue.get_nowait()
                except queue.Empty:
                    break
                if job is _STOP:
                    stop = True
                    break
                batch.append(job)  # type: ignore[arg-type]
            try:
                self._process(batch)
            finally:
                with self._idle:
                    self._unfinished -= len(batch)
                    self._idle.notify_all()
            if stop:
                return
