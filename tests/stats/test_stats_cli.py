"""`gauntlet sprt calc` through typer's CliRunner."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from server.cli import app

runner = CliRunner()


def test_text_block_of_the_pentanomial_vector() -> None:
    result = runner.invoke(app, ["sprt", "calc", "--ptnml", "365,16618,36029+200,16974,390",
                                 "--elo0", "0", "--elo1", "2"])
    assert result.exit_code == 0, result.output
    assert "LLR: 2.25 (76.4%) (-2.94, 2.94) [0.00, 2.00]" in result.output
    assert "Ptnml(0-2): [365, 16618, 36229, 16974, 390]" in result.output
    assert "nElo: 1.96 +/- 1.81" in result.output
    assert "LOS: 98.31 %" in result.output


def test_json_has_exactly_the_documented_keys() -> None:
    result = runner.invoke(app, ["sprt", "calc", "--wdl", "21404,40708,21184", "--elo0", "0.5",
                                 "--elo1", "2.5", "--model", "logistic", "--json"])
    assert result.exit_code == 0, result.output
    body = json.loads(result.output)
    assert set(body) == {"llr", "lower", "upper", "elo", "elo_ci", "nelo", "nelo_ci", "los",
                         "games", "model", "state"}
    assert body["llr"] == pytest.approx(-1.57, abs=0.01)
    assert body["lower"] == pytest.approx(-2.944, abs=1e-3)
    assert body["elo_ci"][0] < body["elo"] < body["elo_ci"][1]
    assert body["nelo_ci"][0] < body["nelo"] < body["nelo_ci"][1]
    assert body["games"] == 83296 and body["state"] == "running"


def test_bayeselo_model_and_wdl_order() -> None:
    result = runner.invoke(app, ["sprt", "calc", "--wdl", "4307,8620,4063", "--elo0", "0",
                                 "--elo1", "3", "--model", "bayeselo", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["llr"] == pytest.approx(2.47, abs=0.01)
    normalized = runner.invoke(app, ["sprt", "calc", "--wdl", "4307,8620,4063", "--elo0", "0",
                                     "--elo1", "3", "--json"])
    assert json.loads(normalized.output)["llr"] == pytest.approx(2.37, abs=0.01)


@pytest.mark.parametrize("args", [
    ["--elo0", "0", "--elo1", "2"],                                         # no counts
    ["--wdl", "1,2,3", "--ptnml", "1,2,3,4,5"],                             # both
    ["--wdl", "1,2"],
    ["--wdl", "1,x,3"],
    ["--wdl", "1,-2,3"],
    ["--wdl", "0,0,0"],
    ["--ptnml", "1,2,3,4,5", "--model", "bayeselo"],
    ["--ptnml", "1,2,3,4,5", "--model", "glicko"],
    ["--ptnml", "1,2,3,4,5", "--elo0", "5", "--elo1", "0"],
    ["--ptnml", "1,2,3,4,5", "--alpha", "1.5"],
    ["--ptnml", "1,2,3,4,5", "--elo1", "many"],
])
def test_usage_errors_are_one_line_and_exit_2(args: list[str]) -> None:
    result = runner.invoke(app, ["sprt", "calc", *args])
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    assert "Traceback" not in result.output
