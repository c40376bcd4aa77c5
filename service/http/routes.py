"""The HTTP routes: thin handlers that authenticate, call `BattleService` and answer.

Paths and operation ids are a contract integrations code against: keep them stable.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from litestar import Request, Response, get, post
from litestar.datastructures import ResponseHeader, State
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import HeaderParameter, JSONBody, PathParameter, QueryParameter

from domain.battle import BattleEvent
from domain.battle_commands import BATTLE_COMMAND_DOCS, BattleCommand
from domain.prompts import NextDie
from domain.rulesets import RULESETS, get_ruleset
from domain.rulesets.forecasts import FORECASTS
from events.errors import VersionConflict
from service.battles.awaiting import for_units, ordering_of
from service.battles.keys import Principal
from service.battles.service import BattleService
from service.errors import NotFound
from service.http.command_body import (
    AUTHORIZATION_DOC,
    IDEMPOTENCY_KEY_DOC,
    IDEMPOTENCY_KEY_MAX,
    CommandAnswer,
    CommandBodyRequest,
    CommandOperation,
    command_headers,
)
from service.http.conditional import (
    ETAG_HEADER,
    NOT_MODIFIED,
    ConditionalRead,
    PreconditionFailed,
    if_match_needs_current,
    if_match_version,
    tagged,
)
from service.http.event_docs import event_docs, events_schema
from service.http.json_body import COMMAND_BODY_MAX, CREATE_BODY_MAX
from service.http.prefer import APPLIED, PREFERENCE_APPLIED_HEADER, prefers_minimal
from service.http.problems import PROBLEM_MEDIA_TYPE
from service.openapi.links import CreatesBattle
from service.schemas import (
    BattleCreatedResponse,
    BattleView,
    CommandRequest,
    CommandResponse,
    CreateBattleRequest,
    DiceReveal,
    EventPage,
    ForkBattleRequest,
    Health,
    RulesetDetail,
    RulesetSummary,
)

__all__ = [
    "ROUTES",
    "SECURED",
    "AppRequest",
    "BattleId",
    "command_answer",
    "created",
    "if_match_failed",
    "location_header",
    "narrowed_answer",
    "narrowed_view",
    "problems",
    "service_of",
]

SERVICE_VERSION = "0.1.0"
MAX_VERSION = 2**53  # JSON-safe, and far beyond any battle


class Problem(msgspec.Struct, kw_only=True):
    """RFC 9457 problem details; `type` is stable per kind of problem."""

    type: str
    title: str
    status: int
    detail: str
    instance: str | None = None
    rule: str | None = None  # the section of the seed text a refused order breaks
    current_version: int | None = None  # on a version conflict
    # A 422 dice-error when table dice ran short: the die (or dice) the command needs next;
    # roll it, add it to `dice` and send the command again.
    next_die: NextDie | None = None
    index: int | None = None  # a batch's refusal: the refused command (0-based)


def problems(*statuses: int) -> dict[int, ResponseSpec]:
    text = {
        400: "The request is malformed or names an invalid value",
        401: "No access key, or an unknown, revoked or expired one",
        403: "The key may not do this (another battle, another side, read-only)",
        404: "No such battle, ruleset, unit or other thing",
        409: "The battle is not at the expected version (current_version says where it is)",
        412: "If-Match names a version the battle is not at (current_version says where it is)",
        413: "The body is larger than this route accepts",
        415: "The body is not sent as JSON (Content-Type: application/json)",
        422: (
            "The rules do not allow this now, the Idempotency-Key was reused, or the"
            " request names a version or a receipt this battle does not have"
        ),
        429: "Too many requests: a rate limit (service.http.limits) was reached; see Retry-After",
        503: "The event store is unavailable; retry",
    }
    return {
        s: ResponseSpec(
            data_container=Problem,
            media_type=PROBLEM_MEDIA_TYPE,
            description=text[s],
            generate_examples=False,
        )
        # Any route may answer 429: every route is rate limited (service.http.limits).
        for s in sorted({*statuses, 429})
    }


BattleId = Annotated[str, PathParameter(min_length=1, max_length=128)]
Authorization = Annotated[
    str | None,
    HeaderParameter(
        name="Authorization",
        required=False,
        description=AUTHORIZATION_DOC,
    ),
]
IdempotencyKey = Annotated[
    str | None,
    HeaderParameter(
        name="Idempotency-Key",
        required=False,
        min_length=1,
        max_length=IDEMPOTENCY_KEY_MAX,
        description=IDEMPOTENCY_KEY_DOC,
    ),
]
SECURED: list[dict[str, list[str]]] = [{"BearerKey": []}]


def location_header(what: str) -> list[ResponseHeader]:
    return [
        ResponseHeader(
            name="Location",
            description=what,
            value="/",  # an example: documented as a string (the handler sets the real one)
            required=True,
            documentation_only=True,
        )
    ]


def created(content: Any, location: str) -> Response[Any]:
    return Response(content, status_code=201, headers={"Location": location})


_battle_commands_schema = msgspec.json.schema(BattleCommand)


# Handlers take the Request, not `state: State`: Litestar builds a new State for every
# request that asks for one (about 8 µs), while `request.app.state` is the app's own.
AppRequest = Request[Any, Any, State]


def service_of(request: AppRequest) -> BattleService:
    # By key, not `state.service`: State's attribute access first fails the ordinary
    # lookup, formatting an AttributeError, before its `__getattr__` reads the dict.
    service: BattleService = request.app.state["service"]
    return service


@get(
    "/health",
    operation_id="getHealth",
    tags=["service"],
    summary="Liveness and store check (503 when the event store does not answer)",
    responses=problems(503),
)
async def health(request: AppRequest) -> Health:
    state = request.app.state
    position = await service_of(request).store.last_position()  # StoreUnavailable -> 503
    return Health(
        status="ok",
        store=state.store_kind,
        version=SERVICE_VERSION,
        position=position,
        subscribers=state.hub.subscribers,
    )


@get(
    "/rulesets",
    operation_id="listRulesets",
    tags=["rulesets"],
    summary="The rule systems",
    responses=problems(),
)
async def list_rulesets() -> list[RulesetSummary]:
    return [
        RulesetSummary(id=r.id, version=r.version, title=r.title, seed=r.seed)
        for r in RULESETS.values()
    ]


@get(
    "/rulesets/{ruleset:str}",
    operation_id="getRuleset",
    tags=["rulesets"],
    summary="A ruleset: options with defaults, setup, command and event schemas",
    responses=problems(400, 404),
)
async def get_ruleset_detail(
    ruleset: Annotated[str, PathParameter(min_length=1, max_length=64)],
) -> RulesetDetail:
    r = get_ruleset(ruleset)
    if r is None:
        raise NotFound(
            f"there is no ruleset {ruleset!r}; known: {sorted(RULESETS)}", code="unknown-ruleset"
        )
    return RulesetDetail(
        id=r.id,
        version=r.version,
        title=r.title,
        seed=r.seed,
        options=msgspec.to_builtins(r.options_type()),
        options_schema=msgspec.json.schema(r.options_type),
        setup_schema=msgspec.json.schema(r.setup_type),
        state_schema={} if r.view_type is None else msgspec.json.schema(r.view_type),
        commands=dict(r.command_docs),
        commands_schema=msgspec.json.schema(r.command_type),
        battle_commands=dict(BATTLE_COMMAND_DOCS),
        battle_commands_schema=_battle_commands_schema,
        forecast_policies=_forecast_policies(r.id),
        events=event_docs(r.event_type),
        events_schema=events_schema(r.event_type),
        battle_events=event_docs(BattleEvent),
        battle_events_schema=events_schema(BattleEvent),
    )


def _forecast_policies(ruleset_id: str) -> dict[str, str]:
    rules = FORECASTS.get(ruleset_id)
    if rules is None:
        return {}
    default = rules.default_policy
    names = [default, *(n for n in rules.policies if n != default)]
    return {n: rules.policy_docs.get(n, "") for n in names}


@post(
    "/battles",
    operation_id="createBattle",
    operation_class=CreatesBattle,
    tags=["battles"],
    summary="Create a battle; answers its id and access keys",
    description=(
        "Open to anyone. With an integration's key (POST /integrations) the battle is "
        "followed by that integration: its key opens the battle as the referee's does, "
        "and GET /events/stream with it carries the battle's events."
    ),
    status_code=201,
    responses=problems(400, 401, 403, 404, 413, 415, 422),
    response_headers=location_header("The new battle: /battles/{battle_id}"),
    security=[{}, *SECURED],
    request_max_body_size=CREATE_BODY_MAX,
)
async def create_battle(
    request: AppRequest,
    data: JSONBody[CreateBattleRequest],
    idempotency_key: IdempotencyKey,
    authorization: Authorization,
) -> Response[BattleCreatedResponse]:
    service = service_of(request)
    integration = await service.keys.integration(authorization)
    integration_id = None if integration is None else integration.integration_id
    answer = await service.create(data, idempotency_key, integration_id)
    return created(answer, f"/battles/{answer.battle_id}")


@get(
    "/battles/{battle_id:str}",
    operation_id="getBattle",
    tags=["battles"],
    summary="The current state, as the caller may see it",
    responses={**problems(400, 401, 403, 404), **NOT_MODIFIED},
    response_headers=ETAG_HEADER,
    operation_class=ConditionalRead,
    security=SECURED,
)
async def get_battle(
    request: AppRequest,
    battle_id: BattleId,
    authorization: Authorization,
) -> Response[BattleView]:
    service = service_of(request)
    principal = await service.keys.resolve(authorization, battle_id)
    view = narrowed_view(await service.view(battle_id, principal.actor), principal)
    return tagged(request, view, view.version)


@post(
    "/battles/{battle_id:str}/commands",
    operation_id="postCommand",
    tags=["battles"],
    summary="Give one command; answers the events it appended and the new version",
    status_code=200,
    responses=problems(400, 401, 403, 404, 409, 412, 413, 415, 422, 503),
    response_headers=[PREFERENCE_APPLIED_HEADER],
    security=SECURED,
    # The hot path: body, headers and answer handled by service.http.command_body, documented
    # the same.
    request_class=CommandBodyRequest,
    operation_class=CommandOperation,
    response_class=CommandAnswer,
    request_max_body_size=COMMAND_BODY_MAX,
)
async def post_command(
    request: AppRequest, battle_id: BattleId, data: JSONBody[CommandRequest]
) -> Response[CommandResponse]:
    service = service_of(request)
    authorization, idempotency_key = command_headers(request)
    keys = service.keys
    principal = keys.cached(authorization, battle_id) or await keys.resolve(
        authorization, battle_id
    )
    current = None
    if data.expected_version is None and if_match_needs_current(request):
        current = (await service.loaded(battle_id)).battle.version  # a list of tags
    required = if_match_version(request, data.expected_version, current)
    minimal = prefers_minimal(request)
    if required is not None:
        data = msgspec.structs.replace(data, expected_version=required)
    try:
        answer = await service.execute(
            battle_id, principal, data, idempotency_key, with_awaiting=not minimal
        )
    except VersionConflict as e:
        if required is None:
            raise
        raise if_match_failed(battle_id, e) from e
    if principal.units is not None:  # a coroutine less for every other key
        answer = await narrowed_answer(service, answer, principal)
    return command_answer(answer, minimal)


def narrowed_view(view: BattleView, principal: Principal) -> BattleView:
    """The view as a player key limited to some units is given it: only the prompts it
    may answer (service.battles.awaiting.for_units)."""
    if principal.units is None:
        return view
    ordering = ordering_of(view.ruleset)
    awaiting = for_units(view.awaiting, principal.actor, principal.units, ordering)
    return msgspec.structs.replace(view, awaiting=awaiting)


async def narrowed_answer(
    service: BattleService, answer: CommandResponse, principal: Principal
) -> CommandResponse:
    """A command's answer as a player key limited to some units is given it."""
    if principal.units is None or isinstance(answer.awaiting, msgspec.UnsetType):
        return answer
    ordering = ordering_of(await service.ruleset_of(answer.battle_id))
    awaiting = for_units(answer.awaiting, principal.actor, principal.units, ordering)
    return msgspec.structs.replace(answer, awaiting=awaiting)


def command_answer(
    response: CommandResponse, minimal: bool, status_code: int = 200
) -> Response[CommandResponse]:
    """A command route's answer: `response`, saying when it honoured return=minimal
    (service.http.prefer); without that header, sent by CommandAnswer's fast path."""
    return CommandAnswer(response, status_code=status_code, headers=APPLIED if minimal else None)


def if_match_failed(battle_id: str, e: VersionConflict) -> PreconditionFailed:
    """The 412 of a command whose If-Match named a version the battle is not at."""
    return PreconditionFailed(
        f"battle {battle_id} is at version {e.current}, not {e.expected} (If-Match)",
        current_version=e.current,
        headers={"ETag": f'"{e.current}"'},
    )


@get(
    "/battles/{battle_id:str}/events",
    operation_id="listEvents",
    tags=["battles"],
    summary="The log, paged by version, filtered by what the caller may see",
    responses=problems(400, 401, 403, 404),
    security=SECURED,
)
async def list_events(
    request: AppRequest,
    battle_id: BattleId,
    authorization: Authorization,
    after: Annotated[
        int, QueryParameter(ge=0, le=MAX_VERSION, description="Return events after this version")
    ] = 0,
    limit: Annotated[int, QueryParameter(ge=1, le=1000, description="At most this many")] = 100,
) -> EventPage:
    service = service_of(request)
    principal = await service.keys.resolve(authorization, battle_id)
    return await service.events(battle_id, principal.actor, after, limit)


@get(
    "/battles/{battle_id:str}/state",
    operation_id="getStateAtVersion",
    tags=["battles"],
    summary="The state right after a version (the current one if none is given)",
    responses={**problems(400, 401, 403, 404, 422), **NOT_MODIFIED},
    response_headers=ETAG_HEADER,
    operation_class=ConditionalRead,
    security=SECURED,
)
async def get_state(
    request: AppRequest,
    battle_id: BattleId,
    authorization: Authorization,
    version: Annotated[int | None, QueryParameter(ge=1, le=MAX_VERSION, required=False)] = None,
) -> Response[BattleView]:
    service = service_of(request)
    principal = await service.keys.resolve(authorization, battle_id)
    view = narrowed_view(await service.view(battle_id, principal.actor, version), principal)
    return tagged(request, view, view.version)


@post(
    "/battles/{battle_id:str}/dice/reveal",
    operation_id="revealDice",
    tags=["battles"],
    summary="Reveal the current dice seed; later dice derive from a newly committed seed",
    status_code=200,
    responses=problems(400, 401, 403, 404, 409, 422, 503),
    security=SECURED,
)
async def reveal_dice(
    request: AppRequest,
    battle_id: BattleId,
    authorization: Authorization,
    idempotency_key: IdempotencyKey,
) -> DiceReveal:
    service = service_of(request)
    principal = await service.keys.resolve(authorization, battle_id)
    return await service.reveal(battle_id, principal, idempotency_key)


@post(
    "/battles/{battle_id:str}/fork",
    operation_id="forkBattle",
    operation_class=CreatesBattle,
    tags=["battles"],
    summary="Fork the battle at a version: a new battle (new keys) starting from that state",
    description=(
        "The referee's. The new battle's first event names the parent and the version; "
        "its game starts as the parent's state right after that version, and goes on "
        "with its own log, keys and dice seed. The parent is not changed."
    ),
    status_code=201,
    responses=problems(400, 401, 403, 404, 415, 422, 503),
    response_headers=location_header("The new battle: /battles/{battle_id}"),
    security=SECURED,
)
async def fork_battle(
    request: AppRequest,
    battle_id: BattleId,
    data: JSONBody[ForkBattleRequest],
    authorization: Authorization,
    idempotency_key: IdempotencyKey,
) -> Response[BattleCreatedResponse]:
    service = service_of(request)
    principal = await service.keys.resolve(authorization, battle_id)
    answer = await service.fork(battle_id, principal, data, idempotency_key)
    return created(answer, f"/battles/{answer.battle_id}")


ROUTES: list[Any] = [
    health,
    list_rulesets,
    get_ruleset_detail,
    create_battle,
    get_battle,
    post_command,
    list_events,
    get_state,
    reveal_dice,
    fork_battle,
]
