"""The webhook worker: an asyncio task in each service process that fills the outbox and
delivers what is due, signed as the Standard Webhooks specification says.

Every `BATTLE_WEBHOOK_POLL_SECONDS` it writes the new events' deliveries, and the
`battle.awaiting` ones after the commands that changed what a battle awaits
(service.live.webhooks.outbox), then claims the due ones (a lease, so that several workers on
one PostgreSQL never send one delivery at once: events.webhooks.postgres) and POSTs
each, with `webhook-id` (the delivery's id, the same on every retry),
`webhook-timestamp` (this attempt's time) and `webhook-signature` made by the
`standardwebhooks` library with the endpoint's secret. Any 2xx answer delivers it;
anything else (another status, a refused connection, no answer within
BATTLE_WEBHOOK_TIMEOUT) is a failed attempt, retried on the schedule of
service.live.webhooks.retry, and the endpoint is disabled after failing for
BATTLE_WEBHOOK_DISABLE_AFTER. Only the oldest pending delivery of a battle is ever
claimed for an endpoint, so a battle's events arrive in order, each after the one before
was accepted. Redirects are not followed (a receiver must answer itself).

Every ten minutes it also forgets deliveries delivered more than
BATTLE_WEBHOOK_RETENTION_DAYS ago, with their attempts (pending ones are kept).

The clock is the service's (`clock`, time.time by default): the stores are handed times.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime

import httpx
from standardwebhooks.webhooks import Webhook

from events.errors import StoreError
from events.store import EventStore
from events.webhooks.records import WebhookAttempt, WebhookDelivery
from service.battles.service import BattleService
from service.http.routes import SERVICE_VERSION
from service.live.webhooks.endpoints import EndpointDamaged, WebhookEndpoints
from service.live.webhooks.outbox import fill_outbox
from service.live.webhooks.retry import RetrySchedule

__all__ = ["WebhookWorker"]

log = logging.getLogger(__name__)

_CLAIM = 16  # deliveries sent at once by one worker
_ERROR_MAX = 300  # characters of an error kept with an attempt
_PRUNE_EVERY = 600.0  # seconds between two prunings of delivered deliveries
_PRUNE_BATCH = 1000  # deliveries forgotten per statement (short transactions)


class WebhookWorker:
    def __init__(
        self,
        service: BattleService,
        endpoints: WebhookEndpoints,
        schedule: RetrySchedule,
        *,
        timeout: float,
        poll_seconds: float,
        retention_days: float = 7.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._service = service
        self._store: EventStore = service.store
        self._endpoints = endpoints
        self._schedule = schedule
        self._timeout = timeout
        self._poll = poll_seconds
        self._clock = clock
        self._retention = retention_days * 86_400
        self._next_prune = 0.0
        # A claim outlives the longest attempt, so no other worker takes it meanwhile.
        self._lease = 2 * timeout + 5
        self._task: asyncio.Task[None] | None = None
        self._client: httpx.AsyncClient | None = None

    async def start(self) -> None:
        """Run rounds every poll interval until `stop` (a round may also be run by hand)."""
        self._task = asyncio.create_task(self._run(), name="webhook-worker")

    def _http(self) -> httpx.AsyncClient:
        if self._client is None:
            self._client = httpx.AsyncClient(
                timeout=self._timeout,
                follow_redirects=False,
                headers={"user-agent": f"battle-service-webhooks/{SERVICE_VERSION}"},
            )
        return self._client

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    async def _run(self) -> None:
        while True:
            try:
                await self.run_once()
            except StoreError as e:  # the store is down: try again next round
                log.warning("webhooks: the store failed: %s", e)
            except Exception:  # a bug must not end deliveries for the process's life
                log.exception("webhooks: a round failed")
            await asyncio.sleep(self._poll)

    async def run_once(self) -> int:
        """Fill the outbox, then send what is due (until nothing is); the attempts made."""
        await fill_outbox(
            self._store,
            self._endpoints,
            self._service.unsealed_upto,
            self._clock(),
            self._service.ruleset_of,
            self._service.awaiting,
        )
        made = 0
        while True:
            now = self._clock()
            claimed = await self._store.claim_webhook_deliveries(now, now + self._lease, _CLAIM)
            if not claimed:
                if now >= self._next_prune:
                    self._next_prune = now + _PRUNE_EVERY
                    await self.prune(now)
                return made
            await asyncio.gather(*(self._attempt(d) for d in claimed))
            made += len(claimed)

    async def prune(self, now: float) -> int:
        """Forget what was delivered before the retention period; how many deliveries."""
        pruned = 0
        while True:
            n = await self._store.prune_webhook_deliveries(now - self._retention, _PRUNE_BATCH)
            pruned += n
            if n < _PRUNE_BATCH:
                return pruned

    async def _attempt(self, delivery: WebhookDelivery) -> None:
        endpoint = await self._store.find_webhook_endpoint(delivery.endpoint_id)
        if endpoint is None:  # deleted since: its deliveries went with it
            return
        started = self._clock()
        status: int | None = None
        error: str | None = None
        try:
            secrets = self._endpoints.signing_secrets(endpoint, started)
            body = delivery.payload.decode()
            stamp = datetime.fromtimestamp(started, tz=UTC)
            # one signature per secret, space-separated (a receiver accepts any one)
            signature = " ".join(
                Webhook(s).sign(delivery.delivery_id, stamp, body) for s in secrets
            )
            headers = {
                "content-type": "application/json",
                "webhook-id": delivery.delivery_id,
                "webhook-timestamp": str(int(started)),
                "webhook-signature": signature,
            }
            response = await self._http().post(
                endpoint.url, content=delivery.payload, headers=headers
            )
            status = response.status_code
            if not 200 <= status < 300:
                error = f"the receiver answered {status}"
        except EndpointDamaged as e:
            log.error("TAMPERING: %s: not delivered to", e)
            error = "the endpoint's record is damaged (see the service's log)"
        except httpx.TimeoutException:
            error = f"no answer within {self._timeout:g} s"
        except httpx.HTTPError as e:
            error = f"{type(e).__name__}: {e}"[:_ERROR_MAX]
        done = self._clock()
        attempt = WebhookAttempt(
            delivery_id=delivery.delivery_id,
            attempt=delivery.attempts + 1,
            at=started,
            ok=error is None,
            status_code=status,
            error=error,
            duration_ms=round((done - started) * 1000, 3),
        )
        if error is None:
            await self._store.record_webhook_success(attempt)
            return
        retry_at = self._schedule.retry_at(done, delivery.attempts + 1)
        # Judged at the attempt's start, the time the store records as `disabled_at`: so
        # an endpoint is never disabled less than `disable_after` after it began failing.
        disabled = await self._store.record_webhook_failure(
            attempt, retry_at, self._schedule.disable_if_failing_since(started)
        )
        if disabled:
            log.warning(
                "webhook endpoint %s disabled: its deliveries failed for %g s (last: %s)",
                endpoint.endpoint_id,
                self._schedule.disable_after,
                error,
            )
