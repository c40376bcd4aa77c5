"""deploy/: the image, compose file, nginx config and Kubernetes manifests.

No container engine runs here, so these tests read the files and check what would break
a deploy: they parse; the image runs the same command as the README's `make serve`
(host changed to 0.0.0.0) through the console script pyproject.toml declares; workers
get PostgreSQL and Redis and start only after the migration; probes, Secret, ConfigMap
and Service are wired to each other; the proxy streams SSE and passes WebSocket upgrades.
"""

from __future__ import annotations

import http.server
import importlib
import ipaddress
import json
import re
import shlex
import shutil
import subprocess
import sys
import threading
import tomllib
from collections.abc import Iterator
from fnmatch import fnmatch
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import msgspec
import pytest
import yaml

from service.settings import Settings, parse_proxies

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
SERVE_PORT = 8000

# ---------------------------------------------------------------------------------------
# Readers: Makefile, Dockerfile, .dockerignore, nginx.conf, compose-style interpolation
# ---------------------------------------------------------------------------------------


def _logical_lines(text: str) -> list[str]:
    """Lines with backslash continuations joined and comment lines dropped."""
    out: list[str] = []
    current = ""
    for raw in text.splitlines():
        stripped = raw.strip()
        if stripped.startswith("#") or (not stripped and not current):
            continue
        if stripped.endswith("\\"):
            current += stripped[:-1] + " "
            continue
        current += stripped
        if current.strip():
            out.append(current.strip())
        current = ""
    if current.strip():
        out.append(current.strip())
    return out


def makefile_serve_command(host: str) -> list[str]:
    """The `make serve` recipe as argv, with HOST overridden and the console script's name."""
    text = (ROOT / "Makefile").read_text()
    variables: dict[str, str] = {}
    for line in text.splitlines():
        m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*)\s*(\?=|:=|=)\s*(.*)$", line)
        if m:
            variables.setdefault(m.group(1), m.group(3).strip())
    variables["HOST"] = host

    def expand(value: str) -> str:
        for _ in range(10):
            value = re.sub(r"\$\((\w+)\)", lambda m: variables.get(m.group(1), ""), value)
        return value

    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if re.match(r"^serve\s*:", line))
    recipe = []
    for line in lines[start + 1 :]:
        if not line.startswith("\t"):
            break
        recipe.append(line.strip())
    assert len(recipe) == 1, f"the serve target should run one command, not {recipe}"
    argv = shlex.split(expand(recipe[0]))
    return [Path(argv[0]).name, *argv[1:]]


def makefile_default(name: str) -> str:
    m = re.search(rf"^{name}\s*\?=\s*(\S+)", (ROOT / "Makefile").read_text(), re.M)
    assert m, f"Makefile has no default for {name}"
    return m.group(1)


class Stage(msgspec.Struct):
    base: str
    name: str | None
    instructions: list[tuple[str, str]]

    def all(self, instruction: str) -> list[str]:
        return [args for instr, args in self.instructions if instr == instruction]

    def last(self, instruction: str) -> str | None:
        found = self.all(instruction)
        return found[-1] if found else None


def _exec_form(args: str) -> list[str]:
    args = args.strip()
    if args.startswith("["):
        value = json.loads(args)
        assert isinstance(value, list) and all(isinstance(v, str) for v in value)
        return value
    return ["/bin/sh", "-c", args]


def dockerfile_stages() -> list[Stage]:
    lines = _logical_lines((DEPLOY / "Dockerfile").read_text())
    args: dict[str, str] = {}
    stages: list[Stage] = []
    for line in lines:
        instr, _, rest = line.partition(" ")
        instr = instr.upper()
        rest = rest.strip()
        if instr == "ARG" and not stages:
            key, _, default = rest.partition("=")
            args[key] = default
        elif instr == "FROM":
            rest = re.sub(r"\$\{(\w+)\}|\$(\w+)", lambda m: args[m.group(1) or m.group(2)], rest)
            tokens = [t for t in rest.split() if not t.startswith("--")]
            name = tokens[2] if len(tokens) == 3 and tokens[1].upper() == "AS" else None
            stages.append(Stage(base=tokens[0], name=name, instructions=[]))
        else:
            assert stages, f"{instr} before the first FROM"
            stages[-1].instructions.append((instr, rest))
    return stages


class Image(msgspec.Struct):
    entrypoint: list[str]
    cmd: list[str]


def image() -> Image:
    final = dockerfile_stages()[-1]
    entrypoint = final.last("ENTRYPOINT")
    cmd = final.last("CMD")
    return Image(
        entrypoint=_exec_form(entrypoint) if entrypoint else [],
        cmd=_exec_form(cmd) if cmd else [],
    )


def _argv(value: Any) -> list[str]:
    if isinstance(value, str):
        return shlex.split(value)
    assert isinstance(value, list) and all(isinstance(v, str | int) for v in value), value
    return [str(v) for v in value]


def effective_command(entrypoint: Any = None, command: Any = None) -> list[str]:
    """What a container of the image runs, given compose's entrypoint/command (or
    Kubernetes' command/args) overrides; setting the entrypoint drops the image's CMD."""
    img = image()
    ep = img.entrypoint if entrypoint is None else _argv(entrypoint)
    if command is not None:
        cmd = _argv(command)
    elif entrypoint is None:
        cmd = img.cmd
    else:
        cmd = []
    return ep + cmd


def dockerignored(path: str) -> bool:
    """Docker's rule, enough for our allow-list: the last matching pattern decides, and a
    pattern matching a parent directory matches everything under it."""
    lines = (DEPLOY / "Dockerfile.dockerignore").read_text().splitlines()
    patterns = [p.strip() for p in lines if p.strip() and not p.strip().startswith("#")]
    parts = Path(path).parts
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    ignored = False
    for pattern in patterns:
        negated = pattern.startswith("!")
        pattern = pattern.lstrip("!").strip("/")
        if any(fnmatch(p, pattern) or fnmatch(p, pattern.removeprefix("**/")) for p in prefixes):
            ignored = not negated
    return ignored


def interpolate(value: str) -> str:
    """Compose's ${VAR:-default} / ${VAR-default} with the variable unset."""
    return re.sub(r"\$\{\w+(?::?-([^}]*))?\}", lambda m: m.group(1) or "", value)


class Block(msgspec.Struct):
    name: str
    args: list[str]
    children: list[Block]

    def directives(self, name: str) -> list[Block]:
        return [c for c in self.children if c.name == name]

    def one(self, name: str) -> Block:
        found = self.directives(name)
        assert len(found) == 1, f"expected one {name!r} in {self.name} {self.args}: {found}"
        return found[0]


def nginx_config() -> Block:
    text = (DEPLOY / "nginx.conf").read_text()
    tokens = re.findall(r'"[^"]*"|\'[^\']*\'|[{};]|[^\s{};"\']+', re.sub(r"#[^\n]*", "", text))
    root = Block(name="main", args=[], children=[])
    stack = [root]
    words: list[str] = []
    for token in tokens:
        if token == ";":
            stack[-1].children.append(Block(name=words[0], args=words[1:], children=[]))
            words = []
        elif token == "{":
            block = Block(name=words[0], args=words[1:], children=[])
            stack[-1].children.append(block)
            stack.append(block)
            words = []
        elif token == "}":
            assert not words, f"missing ';' after {words}"
            stack.pop()
        else:
            words.append(token[1:-1] if token[0] in "\"'" else token)
    assert len(stack) == 1 and not words, "unbalanced braces in nginx.conf"
    return root


def nginx_location(server: Block, uri: str) -> Block:
    """nginx's choice: an exact match, else the first matching regex, else the longest prefix."""
    locations = server.directives("location")
    for loc in locations:
        if loc.args[0] == "=" and loc.args[1] == uri:
            return loc
    for loc in locations:
        if loc.args[0] in ("~", "~*"):
            flags = re.IGNORECASE if loc.args[0] == "~*" else 0
            if re.search(loc.args[1], uri, flags):
                return loc
    prefixes = [loc for loc in locations if len(loc.args) == 1 and uri.startswith(loc.args[0])]
    assert prefixes, f"no location for {uri}"
    return max(prefixes, key=lambda loc: len(loc.args[0]))


def nginx_seconds(value: str) -> int:
    m = re.fullmatch(r"(\d+)(ms|s|m|h|d)?", value)
    assert m, value
    return int(m.group(1)) * {"ms": 0, None: 1, "s": 1, "m": 60, "h": 3600, "d": 86400}[m.group(2)]


def proxy_headers(location: Block) -> dict[str, str]:
    return {
        d.args[0].lower(): " ".join(d.args[1:]) for d in location.directives("proxy_set_header")
    }


# ---------------------------------------------------------------------------------------
# Loaded documents
# ---------------------------------------------------------------------------------------


def load_all(path: Path) -> list[dict[str, Any]]:
    docs = [d for d in yaml.safe_load_all(path.read_text()) if d is not None]
    assert docs, f"{path} is empty"
    assert all(isinstance(d, dict) for d in docs), f"{path}: a document is not a mapping"
    return docs


def compose() -> dict[str, Any]:
    [doc] = load_all(DEPLOY / "compose.yaml")
    return doc


def services() -> dict[str, dict[str, Any]]:
    result: dict[str, dict[str, Any]] = compose()["services"]
    return result


def compose_env(service: dict[str, Any]) -> dict[str, str]:
    env = service.get("environment") or {}
    if isinstance(env, list):
        env = dict(item.split("=", 1) for item in env)
    return {k: interpolate(str(v)) for k, v in env.items()}


def api_workers() -> dict[str, dict[str, Any]]:
    return {
        name: svc
        for name, svc in services().items()
        if "build" in svc or str(svc.get("image", "")).startswith("battle-service")
        if effective_command(svc.get("entrypoint"), svc.get("command"))[1:2] == ["serve"]
    }


def service_by_image(prefix: str) -> tuple[str, dict[str, Any]]:
    found = [(n, s) for n, s in services().items() if str(s.get("image", "")).startswith(prefix)]
    assert len(found) == 1, f"expected one service with image {prefix}*, found {found}"
    return found[0]


def k8s(name: str) -> dict[str, Any]:
    [doc] = load_all(K8S / name)
    return doc


def pod_spec(doc: dict[str, Any]) -> dict[str, Any]:
    spec: dict[str, Any] = doc["spec"]["template"]["spec"]
    return spec


def only_container(doc: dict[str, Any]) -> dict[str, Any]:
    [container] = pod_spec(doc)["containers"]
    return container


def k8s_command(container: dict[str, Any]) -> list[str]:
    return effective_command(container.get("command"), container.get("args"))


def expected_serve() -> list[str]:
    """The README's command (`make serve`), listening on every interface of the container."""
    return makefile_serve_command(host="0.0.0.0")


def port_of(argv: list[str]) -> int:
    return int(argv[argv.index("--port") + 1])


# ---------------------------------------------------------------------------------------
# Every file parses
# ---------------------------------------------------------------------------------------


def yaml_files() -> list[Path]:
    return sorted([*DEPLOY.rglob("*.yaml"), *DEPLOY.rglob("*.yml")])


def test_the_deploy_files_exist() -> None:
    for name in (
        "Dockerfile",
        "Dockerfile.dockerignore",
        "compose.yaml",
        "nginx.conf",
        "README.md",
        "k8s/configmap.yaml",
        "k8s/secret.example.yaml",
        "k8s/deployment.yaml",
        "k8s/service.yaml",
        "k8s/migration-job.yaml",
        "k8s/kustomization.yaml",
    ):
        assert (DEPLOY / name).is_file(), name


@pytest.mark.parametrize("path", yaml_files(), ids=lambda p: str(p.relative_to(DEPLOY)))
def test_every_yaml_file_parses(path: Path) -> None:
    load_all(path)


def test_nginx_conf_parses() -> None:
    http = nginx_config().one("http")
    assert http.directives("server")


# ---------------------------------------------------------------------------------------
# The image
# ---------------------------------------------------------------------------------------


def test_the_makefile_serve_target_is_the_readme_command() -> None:
    assert "make serve" in (ROOT / "README.md").read_text()
    assert makefile_serve_command(host="127.0.0.1") == [
        "battle-service",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        makefile_default("PORT"),
    ]


def test_the_image_is_built_in_stages_on_python_3_12_slim() -> None:
    stages = dockerfile_stages()
    assert len(stages) >= 2
    final = stages[-1]
    assert re.fullmatch(r"python:3\.12-slim(-\w+)?", final.base), final.base
    # The final stage really takes something from an earlier one (not two unrelated images).
    earlier = {s.name for s in stages[:-1]} | {str(i) for i in range(len(stages) - 1)}
    copies_from = re.findall(r"(?:--from=|from=)(\w+)", " ".join(a for _, a in final.instructions))
    assert set(copies_from) & earlier, "the runtime stage takes nothing from the builder"
    builder_runs = " ".join(a for s in stages[:-1] for a in s.all("RUN"))
    assert "wheel" in builder_runs, "the builder stage should build wheels"


def test_the_image_runs_as_a_numeric_non_root_user() -> None:
    user = dockerfile_stages()[-1].last("USER")
    assert user is not None, "the runtime stage has no USER"
    uid, _, gid = user.partition(":")
    assert uid.isdigit() and int(uid) != 0, f"USER {user}: use a numeric non-root uid"
    assert not gid or (gid.isdigit() and int(gid) != 0), f"USER {user}: group"
    # Kubernetes runs the pods as the same uid.
    for manifest in ("deployment.yaml", "migration-job.yaml"):
        ctx = pod_spec(k8s(manifest))["securityContext"]
        assert ctx["runAsUser"] == int(uid), manifest


def test_the_image_exposes_the_serve_port() -> None:
    exposed = " ".join(dockerfile_stages()[-1].all("EXPOSE")).split()
    assert str(SERVE_PORT) in exposed or f"{SERVE_PORT}/tcp" in exposed


def test_the_image_command_is_the_readme_command_on_all_interfaces() -> None:
    argv = effective_command()
    assert argv == expected_serve()
    assert argv[argv.index("--host") + 1] == "0.0.0.0"
    assert port_of(argv) == SERVE_PORT == int(makefile_default("PORT"))


def test_the_console_script_in_the_image_is_declared_in_pyproject() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    scripts = pyproject["project"]["scripts"]
    name = image().entrypoint[0]
    assert name in scripts, f"{name} is not in [project.scripts]"
    module, _, attr = scripts[name].partition(":")
    assert callable(getattr(importlib.import_module(module), attr))


def test_the_cli_accepts_the_image_command(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import logging

    import uvicorn

    from service.app.cli import main

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: calls.append(kwargs))
    monkeypatch.setattr(logging, "basicConfig", lambda **kwargs: None)
    monkeypatch.setenv("BATTLE_DB", str(tmp_path / "battles.db"))
    main(effective_command()[1:])
    assert len(calls) == 1
    assert calls[0]["host"] == "0.0.0.0"
    assert calls[0]["port"] == SERVE_PORT


def test_the_cli_has_the_migrate_command(capsys: pytest.CaptureFixture[str]) -> None:
    from service.app.cli import main

    with pytest.raises(SystemExit) as exit_info:
        main(["migrate", "--help"])
    assert exit_info.value.code == 0, capsys.readouterr().err


@pytest.fixture
def health_server() -> Iterator[dict[str, Any]]:
    """A stand-in for the service on a free port: /health answers with `status`."""
    control: dict[str, Any] = {"status": 200}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            code = control["status"] if self.path == "/health" else 404
            self.send_response(code)
            self.send_header("content-type", "application/json")
            self.end_headers()
            self.wfile.write(b'{"status":"ok"}' if code == 200 else b"{}")

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    control["port"] = server.server_address[1]
    try:
        yield control
    finally:
        server.shutdown()
        server.server_close()


def test_the_healthcheck_asks_health_with_the_standard_library(
    health_server: dict[str, Any],
) -> None:
    healthcheck = dockerfile_stages()[-1].last("HEALTHCHECK")
    assert healthcheck is not None, "the runtime stage has no HEALTHCHECK"
    options, _, command = healthcheck.partition("CMD")
    assert "--interval" in options and "--timeout" in options
    argv = _exec_form(command)
    assert argv[0] in ("python", "python3"), "slim images have no curl or wget"
    assert f"127.0.0.1:{SERVE_PORT}/health" in " ".join(argv)
    # Run it (stdlib only, like the image) against a local stand-in.
    local = [a.replace(f":{SERVE_PORT}/", f":{health_server['port']}/") for a in argv]
    local[0] = sys.executable
    assert subprocess.run(local, capture_output=True, timeout=30).returncode == 0
    health_server["status"] = 503
    assert subprocess.run(local, capture_output=True, timeout=30).returncode != 0


def test_the_build_context_holds_every_package_and_nothing_else() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    include = pyproject["tool"]["setuptools"]["packages"]["find"]["include"]
    packages = {pattern.rstrip("*").rstrip(".") for pattern in include}
    copied: set[str] = set()
    for stage in dockerfile_stages():
        for args in stage.all("COPY"):
            if "--from" in args:
                continue
            *sources, _dest = [a for a in args.split() if not a.startswith("--")]
            for source in sources:
                assert (ROOT / source).exists(), f"COPY {source}: not in the repository"
                assert not dockerignored(source), f"COPY {source}: excluded by .dockerignore"
                copied.add(source.strip("/"))
    assert "pyproject.toml" in copied
    assert packages <= copied, f"packages not copied into the image: {packages - copied}"
    for never in (".venv", ".git", "data", "tests", ".env", "service/__pycache__"):
        assert dockerignored(never), f"{never} would be sent to the build"


def test_sql_migrations_are_shipped_in_the_wheel() -> None:
    """The image installs a wheel: SQL files must be package data, or `migrate` finds none."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    setuptools = pyproject.get("tool", {}).get("setuptools", {})
    package_data: dict[str, list[str]] = setuptools.get("package-data", {})
    manifest = (ROOT / "MANIFEST.in").read_text() if (ROOT / "MANIFEST.in").exists() else ""
    skip = {".venv", ".git", "tests", "bench", "deploy", "node_modules", "mutants"}
    for sql in ROOT.rglob("*.sql"):
        rel = sql.relative_to(ROOT)
        if rel.parts[0] in skip or rel.parts[0].startswith("."):
            continue
        assert rel.parts[0] in ("domain", "events", "service"), f"{rel} is outside the packages"
        package = ".".join(rel.parts[:-1])
        declared = any(
            (key in ("*", "") or package == key or package.startswith(key + "."))
            and any(
                fnmatch("/".join(rel.parts[len(key.split(".")) :]), g) or fnmatch(rel.name, g)
                for g in globs
            )
            for key, globs in package_data.items()
        )
        assert declared or ".sql" in manifest, (
            f"{rel} is not package data: add it to [tool.setuptools.package-data]"
        )


# ---------------------------------------------------------------------------------------
# compose.yaml
# ---------------------------------------------------------------------------------------


def test_compose_builds_the_image_from_the_repository_root() -> None:
    built = [s for s in services().values() if "build" in s]
    assert built
    for svc in built:
        build = svc["build"]
        context = (DEPLOY / build["context"]).resolve()
        assert context == ROOT
        assert (context / build["dockerfile"]).resolve() == DEPLOY / "Dockerfile"


def test_compose_has_postgres_16_with_a_healthcheck_and_a_volume() -> None:
    _, postgres = service_by_image("postgres:16")
    assert "pg_isready" in " ".join(_argv(postgres["healthcheck"]["test"]))
    mounts = [str(v) for v in postgres.get("volumes", [])]
    assert any(m.split(":")[1] == "/var/lib/postgresql/data" for m in mounts), mounts
    volume = mounts[0].split(":")[0]
    assert volume in (compose().get("volumes") or {}), "the data volume is not declared"


def test_compose_has_redis_7_with_a_healthcheck() -> None:
    _, redis = service_by_image("redis:7")
    assert "redis-cli" in _argv(redis["healthcheck"]["test"])


def test_compose_has_at_least_two_api_workers() -> None:
    workers = api_workers()
    count = sum(int(svc.get("deploy", {}).get("replicas", 1)) for svc in workers.values())
    assert count >= 2, f"{count} API worker(s): {list(workers)}"


def test_each_api_worker_runs_the_readme_command_on_postgres_and_redis() -> None:
    postgres_name, postgres = service_by_image("postgres:16")
    redis_name, _ = service_by_image("redis:7")
    pg_env = compose_env(postgres)
    workers = api_workers()
    assert workers
    for name, svc in workers.items():
        assert effective_command(svc.get("entrypoint"), svc.get("command")) == expected_serve()
        env = compose_env(svc)
        db = urlsplit(env["BATTLE_DB"])
        assert db.scheme in ("postgresql", "postgres"), f"{name}: BATTLE_DB {env['BATTLE_DB']}"
        assert db.hostname == postgres_name and (db.port or 5432) == 5432, name
        assert db.username == pg_env["POSTGRES_USER"], name
        assert db.password == pg_env["POSTGRES_PASSWORD"], name
        assert db.path.lstrip("/") == pg_env["POSTGRES_DB"], name
        redis_url = urlsplit(env["BATTLE_REDIS_URL"])
        assert redis_url.scheme == "redis" and redis_url.hostname == redis_name, name
        assert "ports" not in svc, f"{name} is published: traffic must go through the proxy"


def test_api_workers_start_after_the_migration_succeeded() -> None:
    services_ = services()
    migrate = {
        name
        for name, svc in services_.items()
        if effective_command(svc.get("entrypoint"), svc.get("command"))[:2]
        == ["battle-service", "migrate"]
    }
    assert len(migrate) == 1, f"expected one migrate service, found {migrate}"
    [migrate_name] = migrate
    migrate_svc = services_[migrate_name]
    assert compose_env(migrate_svc)["BATTLE_DB"].startswith("postgresql://")
    postgres_name, _ = service_by_image("postgres:16")
    redis_name, _ = service_by_image("redis:7")
    assert migrate_svc["depends_on"][postgres_name]["condition"] == "service_healthy"
    assert str(migrate_svc.get("restart", "no")) in ("no", "on-failure"), "migrate is one-shot"
    for name, svc in api_workers().items():
        depends = svc["depends_on"]
        assert depends[migrate_name]["condition"] == "service_completed_successfully", name
        assert depends[postgres_name]["condition"] == "service_healthy", name
        assert depends[redis_name]["condition"] == "service_healthy", name
        assert compose_env(svc)["BATTLE_DB"] == compose_env(migrate_svc)["BATTLE_DB"], name


def test_postgres_allows_every_worker_its_pool() -> None:
    _, postgres = service_by_image("postgres:16")
    command = " ".join(_argv(postgres.get("command", [])))
    m = re.search(r"max_connections=(\d+)", command)
    max_connections = int(m.group(1)) if m else 100
    needed = 1  # the migration
    for svc in api_workers().values():
        pool = int(compose_env(svc).get("BATTLE_DB_POOL_SIZE", "8"))
        needed += pool * int(svc.get("deploy", {}).get("replicas", 1))
    assert needed < max_connections


def test_the_proxy_fronts_the_workers_with_deploy_nginx_conf() -> None:
    proxy_name, proxy = service_by_image("nginx:")
    mounts = [str(v).split(":") for v in proxy["volumes"]]
    conf = [m for m in mounts if m[1] == "/etc/nginx/nginx.conf"]
    assert conf and (DEPLOY / conf[0][0]).resolve() == DEPLOY / "nginx.conf"
    [published] = proxy["ports"]
    container_port = interpolate(str(published)).split(":")[-1]
    server = nginx_config().one("http").one("server")
    assert server.one("listen").args[0] == container_port
    assert set(api_workers()) <= set(proxy["depends_on"]), f"{proxy_name} must wait for the API"


# ---------------------------------------------------------------------------------------
# nginx.conf
# ---------------------------------------------------------------------------------------


def _upstream() -> Block:
    [upstream] = nginx_config().one("http").directives("upstream")
    return upstream


def test_nginx_balances_round_robin_over_the_api_workers() -> None:
    upstream = _upstream()
    for balancer in ("ip_hash", "hash", "least_conn", "random", "sticky"):
        assert not upstream.directives(balancer), f"{balancer}: expected round-robin"
    servers = upstream.directives("server")
    assert servers
    workers = api_workers()
    hosts = {s.args[0].rsplit(":", 1)[0] for s in servers}
    assert hosts == set(workers), f"upstream {hosts} vs workers {set(workers)}"
    for s in servers:
        assert s.args[0].rsplit(":", 1)[1] == str(SERVE_PORT)
    if any("resolve" in s.args for s in servers):
        assert upstream.directives("zone"), "`resolve` needs a shared zone"
        assert nginx_config().one("http").directives("resolver"), "`resolve` needs a resolver"


@pytest.mark.parametrize(
    "uri",
    ["/", "/health", "/battles/b1/commands", "/battles/b1/events/stream", "/events/stream"],
)
def test_nginx_proxies_every_route_to_the_upstream(uri: str) -> None:
    server = nginx_config().one("http").one("server")
    location = nginx_location(server, uri)
    assert location.one("proxy_pass").args == [f"http://{_upstream().args[0]}"]
    headers = proxy_headers(location)
    # proxy_set_header in a block replaces (not extends) the inherited ones.
    for header in ("host", "x-forwarded-for", "x-forwarded-proto"):
        assert header in headers, f"{uri}: {header} not passed on"


@pytest.mark.parametrize("uri", ["/battles/b-1/events/stream", "/events/stream"])
def test_nginx_streams_sse_unbuffered_with_long_timeouts(uri: str) -> None:
    location = nginx_location(nginx_config().one("http").one("server"), uri)
    assert location.one("proxy_buffering").args == ["off"]
    assert location.one("proxy_http_version").args == ["1.1"]
    assert nginx_seconds(location.one("proxy_read_timeout").args[0]) >= 600
    assert proxy_headers(location)["last-event-id"] == "$http_last_event_id"
    assert proxy_headers(location).get("connection") == "", "keep upstream connections plain"


def test_nginx_does_not_stream_ordinary_routes_through_the_sse_location() -> None:
    server = nginx_config().one("http").one("server")
    sse = nginx_location(server, "/events/stream")
    for uri in ("/battles/b1/events", "/battles/b1/events/stream/x", "/xevents/stream"):
        assert nginx_location(server, uri) is not sse, uri


def test_nginx_passes_websocket_upgrades() -> None:
    http = nginx_config().one("http")
    location = nginx_location(http.one("server"), "/battles/b-1/events/ws")
    assert location.one("proxy_http_version").args == ["1.1"]
    headers = proxy_headers(location)
    assert headers["upgrade"] == "$http_upgrade"
    connection = headers["connection"]
    if connection.startswith("$"):
        [mapping] = [m for m in http.directives("map") if m.args[1] == connection]
        assert mapping.args[0] == "$http_upgrade"
        assert {c.name: c.args for c in mapping.children}["default"] == ["upgrade"]
    else:
        assert connection.lower() == "upgrade"
    assert nginx_seconds(location.one("proxy_read_timeout").args[0]) >= 600


# ---------------------------------------------------------------------------------------
# Kubernetes
# ---------------------------------------------------------------------------------------


def k8s_docs() -> list[tuple[str, dict[str, Any]]]:
    return [(p.name, d) for p in sorted(K8S.glob("*.yaml")) for d in load_all(p)]


def test_the_manifests_are_namespace_agnostic() -> None:
    for name, doc in k8s_docs():
        assert doc.get("apiVersion") and doc.get("kind"), name
        if doc["kind"] != "Kustomization":
            assert doc["metadata"].get("name"), name
            assert "namespace" not in doc["metadata"], f"{name} pins a namespace"
        else:
            assert "namespace" not in doc, f"{name} pins a namespace"


def test_the_kustomization_lists_every_manifest_but_the_secret_example() -> None:
    kustomization = k8s("kustomization.yaml")
    listed = set(kustomization["resources"])
    for resource in listed:
        assert (K8S / resource).is_file(), resource
    expected = {p.name for p in K8S.glob("*.yaml")} - {
        "kustomization.yaml",
        "secret.example.yaml",
    }
    assert listed == expected
    images = {i["name"] for i in kustomization.get("images", [])}
    for manifest in ("deployment.yaml", "migration-job.yaml"):
        name = only_container(k8s(manifest))["image"].rsplit(":", 1)[0]
        assert not images or name in images, f"{manifest}: image {name} not retagged"


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is not installed")
def test_kubectl_kustomize_renders_the_manifests() -> None:
    result = subprocess.run(
        ["kubectl", "kustomize", str(K8S)], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    kinds = sorted(d["kind"] for d in yaml.safe_load_all(result.stdout) if d)
    assert kinds == ["ConfigMap", "Deployment", "Job", "Service"]


def test_the_configmap_holds_the_non_secret_settings_as_strings() -> None:
    configmap = k8s("configmap.yaml")
    assert configmap["kind"] == "ConfigMap"
    data = configmap["data"]
    assert {"BATTLE_LOG_LEVEL", "BATTLE_DB_POOL_SIZE"} <= set(data)
    assert all(isinstance(v, str) for v in data.values()), "ConfigMap values must be strings"
    assert not {"BATTLE_DB", "BATTLE_REDIS_URL"} & set(data), "credentials belong in the Secret"


def test_the_secret_example_has_placeholder_keys() -> None:
    text = (K8S / "secret.example.yaml").read_text()
    assert "EXAMPLE" in text.upper()
    secret = k8s("secret.example.yaml")
    assert secret["kind"] == "Secret"
    data = secret.get("stringData") or secret.get("data")
    assert set(data) == {"BATTLE_DB", "BATTLE_REDIS_URL", "BATTLE_SIGNING_KEY"}
    assert data["BATTLE_DB"].startswith("postgresql://")
    assert data["BATTLE_REDIS_URL"].startswith("redis://")
    assert "CHANGE-ME" in data["BATTLE_DB"]


def _env_sources(container: dict[str, Any]) -> tuple[dict[str, str], set[str]]:
    """Secret keys the container gets (key -> secret name) and the ConfigMaps it loads."""
    secret_keys: dict[str, str] = {}
    configmaps: set[str] = set()
    secret = k8s("secret.example.yaml")
    secret_data = secret.get("stringData") or secret.get("data")
    for source in container.get("envFrom", []):
        if "secretRef" in source:
            for key in secret_data:
                secret_keys[key] = source["secretRef"]["name"]
        if "configMapRef" in source:
            configmaps.add(source["configMapRef"]["name"])
    for var in container.get("env", []):
        ref = var.get("valueFrom", {}).get("secretKeyRef")
        if ref:
            assert ref["key"] in secret_data, var
            secret_keys[var["name"]] = ref["name"]
    return secret_keys, configmaps


@pytest.mark.parametrize("manifest", ["deployment.yaml", "migration-job.yaml"])
def test_pods_take_their_settings_from_the_configmap_and_the_secret(manifest: str) -> None:
    secret_keys, configmaps = _env_sources(only_container(k8s(manifest)))
    secret_name = k8s("secret.example.yaml")["metadata"]["name"]
    assert secret_keys.get("BATTLE_DB") == secret_name
    assert secret_keys.get("BATTLE_REDIS_URL") == secret_name
    if manifest == "deployment.yaml":  # every worker signs with the same key
        assert secret_keys.get("BATTLE_SIGNING_KEY") == secret_name
    assert k8s("configmap.yaml")["metadata"]["name"] in configmaps


def test_the_deployment_runs_the_readme_command_with_probes_on_health() -> None:
    deployment = k8s("deployment.yaml")
    assert deployment["kind"] == "Deployment"
    assert deployment["spec"]["replicas"] >= 2
    spec = pod_spec(deployment)
    assert spec["terminationGracePeriodSeconds"] > 0
    container = only_container(deployment)
    argv = k8s_command(container)
    assert argv == expected_serve()
    ports = {p.get("name"): p["containerPort"] for p in container["ports"]}
    assert port_of(argv) in ports.values()
    for probe in ("readinessProbe", "livenessProbe"):
        get = container[probe]["httpGet"]
        assert get["path"] == "/health", probe
        port = ports.get(get["port"], get["port"])
        assert port == port_of(argv), f"{probe} on port {get['port']}"
    resources = container["resources"]
    assert resources["requests"]["cpu"] and resources["requests"]["memory"]
    assert resources["limits"]["memory"]


@pytest.mark.parametrize("manifest", ["deployment.yaml", "migration-job.yaml"])
def test_pods_run_as_non_root(manifest: str) -> None:
    doc = k8s(manifest)
    container = only_container(doc)
    pod_ctx = pod_spec(doc).get("securityContext", {})
    ctx = {**pod_ctx, **container.get("securityContext", {})}
    assert ctx.get("runAsNonRoot") is True
    assert ctx.get("runAsUser", 1) != 0
    assert ctx.get("allowPrivilegeEscalation") is False
    assert ctx.get("privileged", False) is False


def test_the_deployment_selects_its_own_pods() -> None:
    deployment = k8s("deployment.yaml")
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    selector = deployment["spec"]["selector"]["matchLabels"]
    assert selector.items() <= labels.items()


def test_the_service_selects_the_deployment_pods_and_not_the_job() -> None:
    service = k8s("service.yaml")
    assert service["kind"] == "Service"
    selector = service["spec"]["selector"]
    deployment = k8s("deployment.yaml")
    assert selector.items() <= deployment["spec"]["template"]["metadata"]["labels"].items()
    job_labels = k8s("migration-job.yaml")["spec"]["template"]["metadata"]["labels"]
    assert not selector.items() <= job_labels.items(), "the Service would route to the Job"
    container = only_container(deployment)
    names = {p.get("name") for p in container["ports"]}
    numbers = {p["containerPort"] for p in container["ports"]}
    for port in service["spec"]["ports"]:
        target = port.get("targetPort", port["port"])
        assert target in names or target in numbers, f"targetPort {target}"


def test_the_job_runs_the_migration_with_the_deployment_image_and_settings() -> None:
    job = k8s("migration-job.yaml")
    assert job["kind"] == "Job"
    container = only_container(job)
    assert k8s_command(container) == ["battle-service", "migrate"]
    api = only_container(k8s("deployment.yaml"))
    assert container["image"] == api["image"]
    assert container.get("envFrom") == api.get("envFrom")
    assert container.get("env") == api.get("env")
    assert pod_spec(job)["restartPolicy"] in ("Never", "OnFailure")
    assert job["spec"].get("backoffLimit", 6) >= 1


# ---------------------------------------------------------------------------------------
# deploy/README.md
# ---------------------------------------------------------------------------------------


def test_the_deploy_readme_covers_building_settings_scaling_and_watching() -> None:
    text = (DEPLOY / "README.md").read_text()
    assert re.search(r"docker build -f deploy/Dockerfile (-t \S+ )?\.\s", text)
    assert "docker compose -f deploy/compose.yaml" in text
    assert "kubectl" in text and "apply -k deploy/k8s" in text
    for setting in ("BATTLE_DB", "BATTLE_REDIS_URL", "BATTLE_DB_POOL_SIZE", "BATTLE_LOG_LEVEL"):
        assert f"`{setting}`" in text, setting
    for topic in ("/health", "migrate", "stateless", "source of truth", "replica", "one process"):
        assert topic in text, topic


def test_the_workers_believe_x_forwarded_for_only_from_their_own_proxy() -> None:
    # Trusting `*` let the leftmost, client-written entry of nginx's header win: every
    # per-address limit fell to a header (issue 31, item 9).
    name, proxy = service_by_image("nginx")
    address = ipaddress.ip_address(proxy["networks"]["default"]["ipv4_address"])
    subnets = [c["subnet"] for c in compose()["networks"]["default"]["ipam"]["config"]]
    assert any(address in ipaddress.ip_network(s) for s in subnets), name
    for worker in api_workers().values():
        env = compose_env(worker)
        assert "FORWARDED_ALLOW_IPS" not in env
        trusted = Settings.from_env(env | {"BATTLE_DB": "x.db"}).trusted_proxies
        assert trusted == (f"{address}/32",), "name the proxy, and only it"
    data = k8s("configmap.yaml")["data"]
    networks = parse_proxies(data["BATTLE_TRUSTED_PROXIES"])
    assert networks and all(ipaddress.ip_network(n).prefixlen > 0 for n in networks)
