"""The container (issue O): Dockerfile, .dockerignore and compose.yaml at the repository's root.

What can be checked without Docker always is (a non-root user, nothing secret in the build, compose's commands ones
bot.py accepts); building the image needs a Docker daemon, and that test says plainly why it skips where there is
none (CI here has none, and ``make test`` does not depend on it)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import uuid
from pathlib import Path
from typing import Any

import pytest

import bot

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "Dockerfile"
DOCKERIGNORE = ROOT / ".dockerignore"
COMPOSE = ROOT / "compose.yaml"


def instructions(text: str) -> list[tuple[str, str]]:
    """A Dockerfile's instructions as (keyword, arguments), continuation lines joined and comments dropped."""
    joined = re.sub(r"\\\n", " ", "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#")))
    out = []
    for line in joined.splitlines():
        if line.strip():
            keyword, _, rest = line.strip().partition(" ")
            out.append((keyword.upper(), rest.strip()))
    return out


def stages(text: str) -> list[list[tuple[str, str]]]:
    """The instructions of each stage (each ``FROM`` starts one)."""
    out: list[list[tuple[str, str]]] = []
    for keyword, rest in instructions(text):
        if keyword == "FROM":
            out.append([])
        if out:
            out[-1].append((keyword, rest))
    return out


def test_the_image_runs_the_bot_as_a_user_without_privileges_from_a_slim_base() -> None:
    text = DOCKERFILE.read_text()
    build, final = stages(text)
    base = re.search(r"ARG PYTHON_IMAGE=(\S+)", text)
    assert base is not None and re.fullmatch(r"python:3\.(1[1-9])-slim(-\w+)?", base[1]), base
    assert build[0][1] == "${PYTHON_IMAGE} AS build" and final[0][1] == "${PYTHON_IMAGE}"
    # The first stage builds the venv from pyproject.toml; the final one copies it, then the code.
    assert ("COPY", "pyproject.toml README.md ./") in build
    assert any(k == "RUN" and "/opt/venv/bin/pip install ." in rest for k, rest in build)
    assert ("COPY", "--from=build /opt/venv /opt/venv") in final
    users = [rest for keyword, rest in final if keyword == "USER"]
    assert users and users[-1] not in ("root", "0") and not users[-1].startswith("0:")
    assert final.index(("USER", users[-1])) > max(i for i, (k, _) in enumerate(final) if k in ("RUN", "COPY"))
    assert final[-1] == ("CMD", '["python", "bot.py"]')
    env = " ".join(rest for keyword, rest in final if keyword == "ENV")
    assert "DATABASE_PATH=/data/westeros.sqlite3" in env and ("VOLUME", '["/data"]') in final


def test_nothing_secret_or_local_reaches_the_image() -> None:
    text = DOCKERFILE.read_text()
    for keyword, rest in instructions(text):
        if keyword in ("COPY", "ADD"):
            sources = [s for s in rest.split()[:-1] if not s.startswith("--")]
            assert "." not in sources, f"{keyword} {rest}: the whole context, whatever it holds"
            assert not any(s.startswith(".env") or s.endswith((".sqlite3", ".db")) for s in sources), rest
        if keyword in ("ENV", "ARG"):
            assert not re.search(r"TOKEN|PASSWORD|SECRET", rest, re.I), f"{keyword} {rest}: a secret baked in"
    ignored = {line.strip().rstrip("/") for line in DOCKERIGNORE.read_text().splitlines() if line.strip()}
    assert {".env", ".env.*", "*.sqlite3", ".venv", "backups", ".git"} <= ignored


def test_every_file_the_image_copies_is_in_the_build_context() -> None:
    """A COPY of a path .dockerignore leaves out fails the build only where Docker runs: caught here instead."""
    ignored = {line.strip().rstrip("/") for line in DOCKERIGNORE.read_text().splitlines() if line.strip()}
    for keyword, rest in instructions(DOCKERFILE.read_text()):
        if keyword == "COPY" and not rest.startswith("--from"):
            for source in rest.split()[:-1]:
                assert (ROOT / source).exists(), source
                assert source.rstrip("/") not in ignored, f"{source} is copied but .dockerignore leaves it out"


def compose_commands(text: str) -> dict[str, list[str]]:
    """Each service's ``command`` (written as a flow sequence of quoted strings, which is JSON too)."""
    found: dict[str, list[str]] = {}
    service = None
    for line in text.splitlines():
        named = re.match(r"^  ([a-z][\w-]*):\s*$", line)
        if named:
            service = named[1]
        command = re.match(r"^    command:\s*(\[.*\])\s*$", line)
        if command and service:
            found[service] = json.loads(command[1])
    return found


def test_compose_runs_commands_bot_py_accepts() -> None:
    """Each service's command parses with bot.py's own parser: the default profile's one process, the scale
    profile's gateway and worker. Checked on the text, so it runs without PyYAML."""
    text = COMPOSE.read_text()
    commands = compose_commands(text)
    assert commands == {
        "bot": ["python", "bot.py"],
        "gateway": ["python", "bot.py", "--role", "gateway"],
        "worker": ["python", "bot.py", "--role", "worker"],
    }
    roles = {service: bot.parser().parse_args(argv[2:]).role for service, argv in commands.items()}
    assert roles == {"bot": "all", "gateway": "gateway", "worker": "worker"}
    assert "env_file: .env" in text and "DISCORD_TOKEN=" not in text and "DISCORD_TOKEN:" not in text


def test_compose_parses_as_yaml_with_its_profiles_and_health_checks() -> None:
    yaml: Any = pytest.importorskip(
        "yaml", reason="PyYAML is not installed in this venv: compose.yaml's YAML structure is not checked here"
    )
    spec = yaml.safe_load(COMPOSE.read_text())
    services = spec["services"]
    assert set(services) == {"db", "bot", "gateway", "worker"}
    assert "profiles" not in services["bot"] and "profiles" not in services["db"]  # the default: one process
    assert services["gateway"]["profiles"] == ["scale"] and services["worker"]["profiles"] == ["scale"]
    assert services["worker"]["deploy"]["replicas"] == 2
    assert "pg_isready" in services["db"]["healthcheck"]["test"]
    for name in ("bot", "gateway", "worker"):
        service = services[name]
        assert service["env_file"] == ".env" and service["build"] == "."
        assert service["environment"]["DATABASE_URL"].startswith("postgresql://")
        port = service["environment"]["HEALTH_PORT"]
        assert any(f"127.0.0.1:{port}/healthz" in part for part in service["healthcheck"]["test"])
        assert service["depends_on"]["db"]["condition"] == "service_healthy"


def docker_unavailable() -> str | None:
    """Why the image cannot be built here, or None when a docker binary and its daemon answer."""
    docker = shutil.which("docker")
    if docker is None:
        return "no docker binary on the PATH: the image is not built here"
    try:
        info = subprocess.run([docker, "info"], capture_output=True, text=True, timeout=20)
    except subprocess.TimeoutExpired:
        return "docker is installed but its daemon did not answer `docker info` within 20 s: the image is not built"
    if info.returncode != 0:
        reason = (info.stderr or info.stdout).strip().splitlines()[-1:] or ["no reason given"]
        return f"docker is installed but its daemon does not answer ({reason[0]}): the image is not built here"
    return None


@pytest.mark.slow
def test_the_image_builds_and_runs_as_a_user_without_privileges() -> None:
    """Where Docker runs: the image builds, its user is not root, bot.py starts in it and knows its commands."""
    reason = docker_unavailable()
    if reason is not None:
        pytest.skip(reason)
    tag = f"westeros-bot-test:{uuid.uuid4().hex[:12]}"
    try:
        built = subprocess.run(["docker", "build", "-t", tag, str(ROOT)], capture_output=True, text=True, timeout=1800)
        assert built.returncode == 0, built.stderr[-4000:]
        uid = subprocess.run(["docker", "run", "--rm", tag, "id", "-u"], capture_output=True, text=True, timeout=120)
        assert uid.returncode == 0 and uid.stdout.strip() not in ("", "0"), uid
        helped = subprocess.run(
            ["docker", "run", "--rm", tag, "python", "bot.py", "--help"], capture_output=True, text=True, timeout=120
        )
        assert helped.returncode == 0 and "--role" in helped.stdout, helped.stderr
        # No token: the bot says how to get one and stops with its configuration error, having read the volume's path.
        bare = subprocess.run(["docker", "run", "--rm", tag], capture_output=True, text=True, timeout=120)
        assert bare.returncode == bot.EX_CONFIG and "DISCORD_TOKEN is not set" in bare.stderr, bare.stderr
        listed = subprocess.run(
            ["docker", "run", "--rm", tag, "ls", "-a", "/app"], capture_output=True, text=True, timeout=120
        )
        assert not {".env", "tests", ".git", ".venv"} & set(listed.stdout.split()), listed.stdout
    finally:
        subprocess.run(["docker", "image", "rm", "-f", tag], capture_output=True, timeout=120)
