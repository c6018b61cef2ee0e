"""Run `amigos replay` and the referee on the same record text and put the answers side by side.

The CLI is called in-process (`amigos.cli.main`) with its standard streams captured, which keeps
hundreds of replays fast; test_subprocess.py runs the real command a few times as well.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path
from typing import Any, NamedTuple

from amigos.cli import main as amigos_main
from tests.referee.replay import RefereeError, referee_replay

_LOCATION = re.compile(r"hand (\d+), move (\d+)")


class Answer(NamedTuple):
    """What one replayer said: the report, or the (hand, move) of the refusal."""

    report: dict[str, Any] | None
    where: tuple[int, int] | None
    detail: str


def cli_answer(text: str | bytes, workdir: Path) -> Answer:
    path = workdir / "record.json"
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = amigos_main(["replay", str(path)])
    return read_cli_output(code, out.getvalue(), err.getvalue())


def read_cli_output(code: int, stdout: str, stderr: str) -> Answer:
    """Check the CLI's contract (exit 0 + one JSON object, or exit 2 + one located error line)."""
    if code == 0:
        assert stderr == "", stderr
        assert stdout.endswith("\n") and stdout.count("\n") == 1, stdout
        report = json.loads(stdout)
        assert isinstance(report, dict)
        return Answer(report, None, "")
    assert code == 2, f"exit status {code}: {stderr}"
    assert stdout == "", stdout
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert "hand" in lines[0] and "move" in lines[0], lines[0]
    assert "Traceback" not in stderr
    match = _LOCATION.search(lines[0])
    assert match is not None, lines[0]
    return Answer(None, (int(match.group(1)), int(match.group(2))), lines[0])


def referee_answer(text: str | bytes) -> Answer:
    try:
        return Answer(referee_replay(text), None, "")
    except RefereeError as exc:
        return Answer(None, (exc.hand, exc.move), str(exc))


def disagreement(engine: Answer, referee: Answer, compare_location: bool = True) -> str | None:
    """None when both agree; otherwise a readable description of how they differ."""
    if engine.report is not None and referee.report is not None:
        if engine.report == referee.report:
            return None
        return "different reports:\n" + _report_diff(engine.report, referee.report)
    if engine.report is None and referee.report is None:
        if not compare_location or engine.where == referee.where:
            return None
        return f"refused at different places: engine {engine.detail!r}, referee {referee.detail!r}"
    if engine.report is None:
        return f"engine refused ({engine.detail}), referee accepted"
    return f"engine accepted, referee refused ({referee.detail})"


def _report_diff(engine: dict[str, Any], referee: dict[str, Any]) -> str:
    lines = []
    for key in sorted(set(engine) | set(referee)):
        if key == "hands" and isinstance(engine.get(key), list) and isinstance(referee.get(key), list):
            for number, (mine, theirs) in enumerate(zip(engine[key], referee[key], strict=False), 1):
                if mine != theirs:
                    lines.append(f"  hand {number}: engine {mine} referee {theirs}")
                    break
            if len(engine[key]) != len(referee[key]):
                lines.append(f"  hands: engine {len(engine[key])} referee {len(referee[key])}")
        elif engine.get(key) != referee.get(key):
            lines.append(f"  {key}: engine {engine.get(key)!r} referee {referee.get(key)!r}")
    return "\n".join(lines)
