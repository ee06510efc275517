"""Pure path logic: include/exclude patterns and real paths → schema templates."""

from __future__ import annotations

import pytest

from svc_client import EndpointInfo, create_endpoint_matcher
from svc_client.errors import ContractValidatorError
from svc_client.middleware.path_patterns import compile_path_patterns


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        ("/users/*", "/users/42", True),
        ("/users/*", "/users/42/posts", False),
        ("/api/**", "/api", True),
        ("/api/**", "/api/a/b", True),
        ("/api/**", "/apiary", False),
        ("/users", "/users/", True),
        ("/files/*.json", "/files/a.json", True),
        ("/files/*.json", "/files/a.xml", False),
    ],
)
def test_patterns(pattern: str, path: str, matches: bool) -> None:
    predicate = compile_path_patterns("include_paths", [pattern])
    assert predicate is not None and predicate(path) is matches


def test_patterns_must_be_paths() -> None:
    with pytest.raises(ContractValidatorError) as misuse:
        compile_path_patterns("exclude_paths", ["users/*"])
    assert "exclude_paths[0]" in misuse.value.details


def test_templates_prefer_static_segments_and_strip_prefixes() -> None:
    endpoints = [EndpointInfo("GET", path, "", "") for path in ("/users/{id}", "/users/me", "/files/{name}.{ext}")]
    match = create_endpoint_matcher(endpoints)
    assert (match("get", "/users/me") or endpoints[0]).path == "/users/me"
    assert (match("GET", "/users/42?x=1") or endpoints[1]).path == "/users/{id}"
    assert (match("GET", "/v1/users/42") or endpoints[1]).path == "/users/{id}"
    assert (match("GET", "/files/a.json") or endpoints[0]).path == "/files/{name}.{ext}"
    assert match("POST", "/users/42") is None
