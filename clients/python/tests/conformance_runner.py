"""Runs the shared conformance cases (``clients/conformance/cases/*.json``) against this client.

The case format and the matching rules are described in ``clients/conformance/README.md``. Each call
name maps onto the client's method; results are compared in their canonical form: the service's
field names, arrays as lists, enums by name.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from svc_client import AsyncContractValidator, ContractValidator, ContractValidatorError
from svc_client.types import ConsumerRegistration, EndpointUsage

from .svc_server import REPOSITORY_ROOT

CONFORMANCE_DIR = REPOSITORY_ROOT / "clients" / "conformance"
CASES_DIR = CONFORMANCE_DIR / "cases"
DOCUMENTS_DIR = CONFORMANCE_DIR / "documents"

Client = ContractValidator | AsyncContractValidator


def case_files() -> list[Path]:
    return sorted(CASES_DIR.glob("*.json"))


def load_case(path: Path) -> dict[str, Any]:
    case: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return case


@dataclass(frozen=True)
class Invocation:
    method: str
    args: tuple[Any, ...] = ()
    kwargs: Mapping[str, Any] = dataclasses.field(default_factory=dict)


def _optional(args: Mapping[str, Any], *names: str) -> dict[str, Any]:
    return {name: args[name] for name in names if name in args}


def _register_schema(args: Mapping[str, Any]) -> Invocation:
    document = DOCUMENTS_DIR / args["document"]
    if "version" in args:
        return Invocation("register_schema_with_version", (args["schema_id"], document, args["version"]))
    return Invocation("register_schema", (args["schema_id"], document))


def _generate(method: str) -> Callable[[Mapping[str, Any]], Invocation]:
    def invocation(args: Mapping[str, Any]) -> Invocation:
        names = ("schema_id", "use_examples") + (("status_code",) if method != "generate_request_body" else ())
        return Invocation(method, (args["method"], args["path"]), _optional(args, *names))

    return invocation


def _registration(args: Mapping[str, Any]) -> ConsumerRegistration:
    return ConsumerRegistration(
        consumer_id=args["consumer_id"],
        consumer_version=args["consumer_version"],
        schema_id=args["schema_id"],
        schema_version=args["schema_version"],
        environment=args.get("environment") or "",
        used_endpoints=tuple(
            EndpointUsage(method=usage["method"], path=usage["path"], used_fields=tuple(usage.get("used_fields", ())))
            for usage in args.get("used_endpoints", ())
        ),
    )


def _from_interactions(method: str) -> Callable[[Mapping[str, Any]], Invocation]:
    def invocation(args: Mapping[str, Any]) -> Invocation:
        return Invocation(method, (args["interactions"],), dict(args["config"]))

    return invocation


CALLS: dict[str, Callable[[Mapping[str, Any]], Invocation]] = {
    "register_schema": _register_schema,
    "validate": lambda a: Invocation(
        "validate", (a["request"], a["response"]), _optional(a, "schema_id", "schema_version")
    ),
    "validate_many": lambda a: Invocation(
        "validate_many", (a["interactions"],), _optional(a, "schema_id", "schema_version")
    ),
    "compare_schemas": lambda a: Invocation(
        "compare_schemas", (a["schema_id"],), _optional(a, "old_version", "new_version")
    ),
    "generate_fixture": _generate("generate_fixture"),
    "generate_response": _generate("generate_response"),
    "generate_request_body": _generate("generate_request_body"),
    "list_endpoints": lambda a: Invocation("list_endpoints", (), _optional(a, "schema_id")),
    "register_consumer": lambda a: Invocation("register_consumer", (_registration(a),)),
    "list_consumers": lambda a: Invocation("list_consumers", (a["schema_id"],), _optional(a, "environment")),
    "deregister_consumer": lambda a: Invocation(
        "deregister_consumer", (a["consumer_id"], a["schema_id"]), _optional(a, "environment")
    ),
    "can_i_deploy": lambda a: Invocation(
        "can_i_deploy", (a["schema_id"], a["new_version"]), _optional(a, "environment")
    ),
    "build_consumer_from_interactions": _from_interactions("build_consumer_from_interactions"),
    "register_consumer_from_interactions": _from_interactions("register_consumer_from_interactions"),
}


def canonical(value: Any) -> Any:
    """A result in the suite's canonical form: plain JSON values with the service's field names."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: canonical(getattr(value, field.name)) for field in dataclasses.fields(value)}
    if isinstance(value, Enum):
        return value.name
    if isinstance(value, Mapping):
        return {str(key): canonical(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [canonical(item) for item in value]
    if isinstance(value, Path):
        return str(value)
    return value


def mismatch(expected: Any, actual: Any, where: str = "$") -> str | None:
    """None when ``actual`` matches ``expected`` (the README's rules), else where and why not."""
    if isinstance(expected, dict) and any(key.startswith("$") for key in expected):
        if "$len" in expected:
            ok = isinstance(actual, list) and len(actual) == expected["$len"]
            return None if ok else f"{where}: expected an array of length {expected['$len']}, got {actual!r}"
        if "$contains" in expected:
            if not isinstance(actual, list):
                return f"{where}: expected an array, got {actual!r}"
            for index, wanted in enumerate(expected["$contains"]):
                if all(mismatch(wanted, item) is not None for item in actual):
                    return f"{where}: no element matches $contains[{index}] = {wanted!r}"
            return None
        if "$match" in expected:
            ok = isinstance(actual, str) and re.search(expected["$match"], actual) is not None
            return None if ok else f"{where}: {actual!r} does not match /{expected['$match']}/"
        if "$nonEmpty" in expected:
            ok = isinstance(actual, (str, list, dict)) and len(actual) > 0
            return None if ok else f"{where}: expected a non-empty value, got {actual!r}"
        if "$absentOrEmpty" in expected:
            empty = actual is None or actual is False or actual == "" or actual == 0 or actual == [] or actual == {}
            return None if empty else f"{where}: expected an absent or empty value, got {actual!r}"
        return f"{where}: unknown matcher {expected!r}"
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return f"{where}: expected an object, got {actual!r}"
        for key, wanted in expected.items():
            if key not in actual:
                if isinstance(wanted, dict) and "$absentOrEmpty" in wanted:
                    continue
                return f"{where}.{key}: missing"
            problem = mismatch(wanted, actual[key], f"{where}.{key}")
            if problem:
                return problem
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return f"{where}: expected an array of {len(expected)}, got {actual!r}"
        for index, (wanted, item) in enumerate(zip(expected, actual)):
            problem = mismatch(wanted, item, f"{where}[{index}]")
            if problem:
                return problem
        return None
    # JSON has one number type: 1 and 1.0 are equal, but true is not 1.
    if isinstance(expected, bool) or isinstance(actual, bool):
        ok = expected is actual
    else:
        ok = expected == actual
    return None if ok else f"{where}: expected {expected!r}, got {actual!r}"


async def run_steps(case: Mapping[str, Any], client: Client) -> list[str]:
    """Runs every step; the failures, each naming the case, the step, the expectation and the actual value."""
    failures: list[str] = []
    for index, step in enumerate(case["steps"]):
        invocation = CALLS[step["call"]](step.get("args", {}))
        outcome: dict[str, Any]
        try:
            value = getattr(client, invocation.method)(*invocation.args, **invocation.kwargs)
            if inspect.isawaitable(value):
                value = await value
            outcome = {"result": canonical(value)}
        except ContractValidatorError as error:
            outcome = {"error": {"code": error.code, "message": error.details}}
        expect = step.get("expect")
        prefix = f"{case['name']} step {index} ({step['call']})"
        if expect is None:
            if "error" in outcome:
                failures.append(f"{prefix}: expected success, got error {outcome['error']!r}")
            continue
        kind = "result" if "result" in expect else "error"
        if kind not in outcome:
            failures.append(f"{prefix}: expected {kind} {expect[kind]!r}, got {outcome!r}")
            continue
        problem = mismatch(expect[kind], outcome[kind])
        if problem:
            failures.append(f"{prefix}: {problem}; expected {json.dumps(expect[kind])}; actual {json.dumps(outcome[kind], default=str)}")
    return failures
