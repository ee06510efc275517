"""Maps a real request path (``/users/123``) to the schema's path template it exercises (``/users/{id}``).

When several templates match, the one with static segments earliest wins, as in the service's router:
``/users/me`` beats ``/users/{id}`` for the path ``/users/me``. Paths sent through a server URL prefix
(``/v1/users/123`` for a schema whose server is ``…/v1``) match too: leading segments are dropped one
at a time, fewest first, until a template matches.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Final, Protocol


class EndpointTemplate(Protocol):
    @property
    def method(self) -> str: ...

    @property
    def path(self) -> str: ...


MAX_PREFIX_SEGMENTS: Final = 4
"""Leading path segments tried as an unknown server prefix."""

_PARAMETER = re.compile(r"^\{[^{}]+\}$")
_PARAMETER_SPLIT = re.compile(r"(\{[^{}]+\})")


class SegmentRank(IntEnum):
    """How specific a template segment is; higher ranks win."""

    PARAMETER = 0
    MIXED = 1
    STATIC = 2


@dataclass(frozen=True, slots=True)
class _Segment:
    rank: SegmentRank
    matches: Callable[[str], bool]


@dataclass(frozen=True, slots=True)
class _Template:
    endpoint: EndpointTemplate
    segments: tuple[_Segment, ...]


EndpointMatcher = Callable[[str, str], "EndpointTemplate | None"]


def create_endpoint_matcher(endpoints: Sequence[EndpointTemplate]) -> EndpointMatcher:
    by_method_and_length: dict[tuple[str, int], list[_Template]] = {}
    for endpoint in endpoints:
        segments = tuple(map(_compile_segment, split_path(endpoint.path)))
        by_method_and_length.setdefault((endpoint.method.upper(), len(segments)), []).append(_Template(endpoint, segments))

    def match(method: str, real_path: str) -> EndpointTemplate | None:
        segments = split_path(pathname_of(real_path))
        upper = method.upper()
        for dropped in range(min(MAX_PREFIX_SEGMENTS, max(0, len(segments) - 1)) + 1):
            rest = segments[dropped:]
            best = _best_match(by_method_and_length.get((upper, len(rest)), []), rest)
            if best is not None:
                return best.endpoint
        return None

    return match


def _best_match(candidates: list[_Template], segments: list[str]) -> _Template | None:
    best: _Template | None = None
    for candidate in candidates:
        if not all(compiled.matches(value) for compiled, value in zip(candidate.segments, segments)):
            continue
        if best is None or _specificity(candidate) > _specificity(best):
            best = candidate
    return best


def _specificity(template: _Template) -> tuple[int, ...]:
    # Compared lexicographically: the first segment where the ranks differ decides.
    return tuple(segment.rank for segment in template.segments)


def _compile_segment(segment: str) -> _Segment:
    if "{" not in segment:
        return _Segment(SegmentRank.STATIC, segment.__eq__)
    if _PARAMETER.match(segment):
        return _Segment(SegmentRank.PARAMETER, lambda value: value != "")
    # A segment mixing text and parameters, such as `{name}.{extension}` or `v{major}`.
    source = "".join("[^/]+" if _PARAMETER.match(part) else re.escape(part) for part in _PARAMETER_SPLIT.split(segment))
    pattern = re.compile(f"^{source}$")
    return _Segment(SegmentRank.MIXED, lambda value: pattern.match(value) is not None)


def split_path(path: str) -> list[str]:
    """``/users/42/`` → ``['users', '42']``; the root path is no segments."""
    parts = path.split("/")
    return [part for index, part in enumerate(parts) if not (part == "" and (index == 0 or index == len(parts) - 1))]


def pathname_of(path: str) -> str:
    """The path without query string or fragment."""
    end = min((index for index in (path.find("?"), path.find("#")) if index != -1), default=-1)
    return path if end == -1 else path[:end]
