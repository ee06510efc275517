"""What the HTTP-client adapters share: a bounded list of captured interactions and, with
``auto_validate``, the validation of each one before the adapter hands the response back, so a
consumer test sees a contract failure at the call that caused it."""

from __future__ import annotations

import json
import re
import threading
from collections import deque
from collections.abc import Callable
from typing import Any, Final, Generic, TypeVar

from ..aio import AsyncContractValidator
from ..client import ContractValidator
from ..errors import invalid_use
from ..options import positive_int
from ..types import Interaction, ValidationResult

DEFAULT_MAX_INTERACTIONS: Final = 10_000
"""Oldest interactions are forgotten beyond this count."""
DEFAULT_MAX_BODY_BYTES: Final = 1024 * 1024  # 1 MiB; larger bodies are recorded as absent

ValidationFailureCallback = Callable[[ValidationResult, Interaction], None]
ValidatorT = TypeVar("ValidatorT", bound="ContractValidator | AsyncContractValidator")

_CAPTURABLE = re.compile(r"json|xml|x-www-form-urlencoded", re.IGNORECASE)
_TEXT = re.compile(r"^text/(?!event-stream)", re.IGNORECASE)


class InteractionRecorder:
    """Thread-safe; one per adapter."""

    def __init__(
        self,
        *,
        validator: ContractValidator | AsyncContractValidator | None = None,
        auto_validate: bool = False,
        on_validation_failure: ValidationFailureCallback | None = None,
        schema_id: str | None = None,
        schema_version: str | None = None,
        max_interactions: int = DEFAULT_MAX_INTERACTIONS,
        max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    ) -> None:
        if auto_validate and validator is None:
            raise invalid_use("auto_validate needs a validator (a ContractValidator)")
        if on_validation_failure is not None and not callable(on_validation_failure):
            raise invalid_use("on_validation_failure must be callable")
        self.validator = validator
        self.auto_validate = auto_validate
        self.on_validation_failure = on_validation_failure
        self.schema_id = schema_id
        self.schema_version = schema_version
        self.max_body_bytes = positive_int("max_body_bytes", max_body_bytes) or DEFAULT_MAX_BODY_BYTES
        limit = positive_int("max_interactions", max_interactions) or DEFAULT_MAX_INTERACTIONS
        self._interactions: deque[Interaction] = deque(maxlen=limit)
        self._lock = threading.Lock()

    def add(self, interaction: Interaction) -> None:
        with self._lock:
            self._interactions.append(interaction)

    def record(self, interaction: Interaction) -> None:
        """Sync adapters: keeps the interaction, then validates it (auto_validate)."""
        self.add(interaction)
        self.validate(interaction)

    async def record_async(self, interaction: Interaction) -> None:
        """Async adapters: keeps the interaction, then validates it (auto_validate)."""
        self.add(interaction)
        await self.validate_async(interaction)

    def validate(self, interaction: Interaction) -> None:
        """Sync adapters: validates with a ContractValidator. A validator failure raises: a contract
        test must not pass because nothing was checked."""
        if not self.auto_validate:
            return
        if not isinstance(self.validator, ContractValidator):
            raise invalid_use("a sync HTTP client needs a ContractValidator for auto_validate")
        self._settle(interaction, self._validate_with(self.validator, interaction))

    async def validate_async(self, interaction: Interaction) -> None:
        if not self.auto_validate:
            return
        if isinstance(self.validator, AsyncContractValidator):
            result = await self.validator.validate(
                interaction.request, interaction.response, schema_id=self.schema_id, schema_version=self.schema_version
            )
        elif isinstance(self.validator, ContractValidator):
            result = self._validate_with(self.validator, interaction)
        else:
            raise invalid_use("auto_validate needs a validator")
        self._settle(interaction, result)

    def _validate_with(self, validator: ContractValidator, interaction: Interaction) -> ValidationResult:
        return validator.validate(
            interaction.request, interaction.response, schema_id=self.schema_id, schema_version=self.schema_version
        )

    def _settle(self, interaction: Interaction, result: ValidationResult) -> None:
        interaction.validation = result
        if not result.valid and self.on_validation_failure is not None:
            self.on_validation_failure(result, interaction)

    def interactions(self) -> list[Interaction]:
        """A copy of the interactions captured so far, oldest first."""
        with self._lock:
            return list(self._interactions)

    def clear(self) -> None:
        with self._lock:
            self._interactions.clear()


class CaptureBase(Generic[ValidatorT]):
    """What the HTTP-client captures share: their options and the recorder behind them."""

    def __init__(
        self,
        *,
        validator: ValidatorT | None = None,
        auto_validate: bool = False,
        on_validation_failure: ValidationFailureCallback | None = None,
        schema_id: str | None = None,
        schema_version: str | None = None,
        max_interactions: int = DEFAULT_MAX_INTERACTIONS,
        max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    ) -> None:
        self.recorder = InteractionRecorder(
            validator=validator,
            auto_validate=auto_validate,
            on_validation_failure=on_validation_failure,
            schema_id=schema_id,
            schema_version=schema_version,
            max_interactions=max_interactions,
            max_body_bytes=max_body_bytes,
        )

    def interactions(self) -> list[Interaction]:
        """A copy of the interactions captured so far, oldest first."""
        return self.recorder.interactions()

    def clear(self) -> None:
        self.recorder.clear()


def is_capturable_content_type(content_type: str | None) -> bool:
    """JSON and text (not event streams), XML, forms; no content type counts as capturable."""
    if not content_type:
        return True
    return bool(_CAPTURABLE.search(content_type) or _TEXT.search(content_type))


def recorded_body(data: bytes | str | None, content_type: str | None, max_bytes: int) -> Any:
    """A body as recorded: JSON parsed to its value when it is an object, array, number or boolean;
    text otherwise; None when absent, too large or not text-like."""
    if data is None or len(data) == 0 or len(data) > max_bytes or not is_capturable_content_type(content_type):
        return None
    text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
    if not content_type or "json" in content_type.lower():
        try:
            value = json.loads(text)
        except ValueError:
            return text
        # A top-level JSON string stays text: handed back as a string it must not lose its quotes.
        if not isinstance(value, str):
            return value
    return text
