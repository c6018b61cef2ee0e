"""Run `amigos rating -` in-process on a text, as a user's shell would."""

from __future__ import annotations

import io
import json
from typing import Any

from amigos.cli.rating import rating_main


def run_rating(data: Any) -> tuple[int, str, str]:
    text = data if isinstance(data, str) else json.dumps(data)
    stdin = io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    status = rating_main("-", stdin, out, err)
    return status, out.getvalue(), err.getvalue()
