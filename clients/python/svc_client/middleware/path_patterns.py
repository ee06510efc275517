"""Path patterns of ``include_paths`` / ``exclude_paths``.

``*`` matches within one segment (``/users/*``); ``**`` matches any number of segments, none included
(``/api/**`` matches ``/api`` and ``/api/a/b``). Everything else is literal. Patterns match the path
without its query string; a trailing slash is not significant.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ..errors import invalid_use

PathPredicate = Callable[[str], bool]


def compile_path_patterns(option: str, patterns: Sequence[str] | None) -> PathPredicate | None:
    if patterns is None:
        return None
    if isinstance(patterns, str) or not isinstance(patterns, Sequence):
        raise invalid_use(f"{option} must be a list of path patterns")
    compiled = []
    for index, pattern in enumerate(patterns):
        if not isinstance(pattern, str) or not pattern.startswith("/"):
            raise invalid_use(f'{option}[{index}] must be a path pattern starting with "/" (got {pattern!r})')
        compiled.append(compile_pattern(pattern))
    return lambda pathname: any(regexp.match(pathname) for regexp in compiled)


def compile_pattern(pattern: str) -> re.Pattern[str]:
    source = ""
    index = 0
    while index < len(pattern):
        if pattern.startswith("/**", index) and (index + 3 == len(pattern) or pattern[index + 3] == "/"):
            source += "(?:/.*)?"  # "/**": any number of segments, or none
            index += 3
        elif pattern[index] == "*":
            source += "[^/]*"
            index += 1
        else:
            source += re.escape(pattern[index])
            index += 1
    return re.compile(f"^{source}/?$")
