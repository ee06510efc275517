"""Benchmarks of the Python client, JSON on stdout. Not part of test.sh.

    .venv/bin/python -m bench.run [--requests 2000] [--interactions 2000]

1. Added latency of the ASGI middleware in shadow and warn mode: the same FastAPI app served by
   uvicorn on 127.0.0.1 with and without the middleware, sequential keep-alive requests, rounds
   interleaved so that drift hits every variant alike; p50 and p99 of each and the ratio to the app
   without middleware.
2. validate_many (one stream) against the same interactions validated one by one with validate().

Both talk to a real svc server started from the repository's build (or $SVC_BIN).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from contextlib import ExitStack
from typing import Any

import httpx
from fastapi import FastAPI

from svc_client import ContractValidator, HttpRequest, HttpResponse, Interaction
from svc_client.middleware import ContractValidationMiddleware
from tests.conftest import DOCUMENTS
from tests.http_servers import serve_asgi
from tests.svc_server import start_server

ROUNDS = 5
WARMUP_REQUESTS = 200
USER = {"id": 42, "name": "Ada", "email": "ada@example.com"}


def users_app() -> FastAPI:
    app = FastAPI()

    @app.get("/users/{user_id}")
    async def get_user(user_id: int) -> dict[str, Any]:
        return {**USER, "id": user_id}

    return app


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def bench_middleware(validator: ContractValidator, schema_id: str, requests: int) -> dict[str, Any]:
    variants: dict[str, Any] = {"baseline": users_app()}
    middlewares: dict[str, ContractValidationMiddleware] = {}
    for mode in ("shadow", "warn"):
        middlewares[mode] = ContractValidationMiddleware(users_app(), schema_id=schema_id, validator=validator, mode=mode)
        variants[mode] = middlewares[mode]
    samples: dict[str, list[float]] = {name: [] for name in variants}
    with ExitStack() as stack:
        clients = {
            name: stack.enter_context(httpx.Client(base_url=stack.enter_context(serve_asgi(app)), timeout=10))
            for name, app in variants.items()
        }
        for client in clients.values():
            for _ in range(WARMUP_REQUESTS):
                client.get("/users/42")
        per_round = max(1, requests // ROUNDS)
        for _ in range(ROUNDS):
            for name, client in clients.items():
                for index in range(per_round):
                    started = time.perf_counter()
                    response = client.get(f"/users/{index}")
                    samples[name].append(time.perf_counter() - started)
                    assert response.status_code == 200
        for middleware in middlewares.values():
            middleware.flush(30)
    base_p50 = statistics.median(samples["baseline"])
    base_p99 = percentile(samples["baseline"], 0.99)
    result: dict[str, Any] = {}
    for name, values in samples.items():
        p50, p99 = statistics.median(values), percentile(values, 0.99)
        entry: dict[str, Any] = {"requests": len(values), "p50_ms": round(p50 * 1e3, 4), "p99_ms": round(p99 * 1e3, 4)}
        if name != "baseline":
            entry.update(
                p50_ratio=round(p50 / base_p50, 4),
                p99_ratio=round(p99 / base_p99, 4),
                added_p50_ms=round((p50 - base_p50) * 1e3, 4),
                added_p99_ms=round((p99 - base_p99) * 1e3, 4),
                stats=middlewares[name].stats().__repr__(),
            )
        result[name] = entry
    return result


def bench_validate_many(validator: ContractValidator, interactions: int) -> dict[str, Any]:
    batch = [
        Interaction(HttpRequest("GET", f"/users/{n}"), HttpResponse(200, {"content-type": "application/json"}, {**USER, "id": n}))
        for n in range(interactions)
    ]
    validator.validate_many(batch[:100])  # warm the stream and the server's compiled contract
    started = time.perf_counter()
    streamed = validator.validate_many(batch)
    streamed_s = time.perf_counter() - started
    started = time.perf_counter()
    one_by_one = [validator.validate(item.request, item.response) for item in batch]
    unary_s = time.perf_counter() - started
    assert all(r.valid for r in streamed) and all(r.valid for r in one_by_one)
    return {
        "interactions": interactions,
        "validate_many_per_s": round(interactions / streamed_s),
        "one_by_one_per_s": round(interactions / unary_s),
        "ratio": round(unary_s / streamed_s, 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description="svc Python client benchmarks")
    parser.add_argument("--requests", type=int, default=2000, help="HTTP requests per middleware variant")
    parser.add_argument("--interactions", type=int, default=2000, help="interactions for validate_many")
    arguments = parser.parse_args()
    server = start_server()
    try:
        with ContractValidator(server.address) as validator:
            validator.register_schema_with_version("bench-users", DOCUMENTS / "users-v1.yaml", "1.0.0")
            report = {
                "python": sys.version.split()[0],
                "middleware": bench_middleware(validator, "bench-users", arguments.requests),
                "validate_many": bench_validate_many(validator, arguments.interactions),
            }
    finally:
        server.stop()
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
