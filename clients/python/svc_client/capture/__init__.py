"""HTTP-client capture: record the exchanges of ``requests`` and ``httpx`` clients as interactions,
optionally validating each one as it completes."""

from .recorder import DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_INTERACTIONS, InteractionRecorder, ValidationFailureCallback

__all__ = ["DEFAULT_MAX_BODY_BYTES", "DEFAULT_MAX_INTERACTIONS", "InteractionRecorder", "ValidationFailureCallback"]
