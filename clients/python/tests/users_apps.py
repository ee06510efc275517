"""The same small Users API as a Starlette app, a FastAPI app and a Flask app, following
``documents/users-v1.yaml`` except where a route is broken on purpose:

- ``GET /users/42`` answers a valid user; ``GET /users/13`` a user without the required ``email``;
- ``POST /users`` answers 201 with the created user (the request body is what the contract checks);
- ``GET /health`` is valid; ``GET /internal/metrics`` is not in the contract.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request as FastAPIRequest
from flask import Flask, jsonify, request as flask_request
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

VALID_USER = {"id": 42, "name": "Ada", "email": "ada@example.com"}
BROKEN_USER = {"id": 13, "name": "Bo"}


def user_by_id(user_id: int) -> dict[str, Any] | None:
    return {42: VALID_USER, 13: BROKEN_USER}.get(user_id)


def created_user(payload: Any) -> dict[str, Any]:
    source = payload if isinstance(payload, dict) else {}
    return {"id": 7, "name": str(source.get("name", "")), "email": str(source.get("email", "x@example.com"))}


def starlette_app() -> Starlette:
    async def get_user(request: Request) -> Response:
        user = user_by_id(int(request.path_params["user_id"]))
        return JSONResponse(user) if user else JSONResponse({"message": "not found"}, status_code=404)

    async def create_user(request: Request) -> Response:
        return JSONResponse(created_user(await request.json()), status_code=201)

    async def health(request: Request) -> Response:
        return JSONResponse({"status": "ok"})

    async def metrics(request: Request) -> Response:
        return PlainTextResponse("requests 1\n")

    return Starlette(
        routes=[
            Route("/users/{user_id:int}", get_user),
            Route("/users", create_user, methods=["POST"]),
            Route("/health", health),
            Route("/internal/metrics", metrics),
        ]
    )


def fastapi_app() -> FastAPI:
    app = FastAPI()

    @app.get("/users/{user_id}")
    async def get_user(user_id: int) -> Any:
        user = user_by_id(user_id)
        return user if user else JSONResponse({"message": "not found"}, status_code=404)

    @app.post("/users", status_code=201)
    async def create_user(request: FastAPIRequest) -> Any:
        return created_user(await request.json())

    @app.get("/health")
    async def health() -> Any:
        return {"status": "ok"}

    return app


def flask_app() -> Flask:
    app = Flask("users")

    @app.get("/users/<int:user_id>")
    def get_user(user_id: int) -> Any:
        user = user_by_id(user_id)
        return jsonify(user) if user else (jsonify({"message": "not found"}), 404)

    @app.post("/users")
    def create_user() -> Any:
        return jsonify(created_user(flask_request.get_json(silent=True))), 201

    @app.get("/health")
    def health() -> Any:
        return jsonify({"status": "ok"})

    @app.get("/internal/metrics")
    def metrics() -> Any:
        return "requests 1\n", 200, {"content-type": "text/plain"}

    return app
