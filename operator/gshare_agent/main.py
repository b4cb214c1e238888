"""`gshare agent` / `python -m gshare_agent`: run the node agent until SIGTERM/SIGINT."""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

from gshare_agent.settings import AgentSettings, load_settings

if TYPE_CHECKING:
    from gshare_agent.agent import Agent
    from gshare_agent.sender import UsagePoster


def build(settings: AgentSettings) -> tuple[Agent, UsagePoster]:
    from gshare_agent.agent import Agent
    from gshare_agent.keys import load_key
    from gshare_agent.kube import KubeClient
    from gshare_agent.lean import import_alone
    from gshare_agent.sender import UsagePoster
    from gshare_agent.transport import Origin

    # the operator's signer, without the operator's package (its main imports asyncio)
    signing = import_alone("gshare_operator.signing")
    signer = signing.CallbackSigner(settings.cluster_id, load_key(settings.private_key_path))
    kube = (
        KubeClient.from_kubeconfig(settings.kubeconfig, timeout=max(settings.http_timeout, 5.0))
        if settings.kubeconfig
        else KubeClient.in_cluster(timeout=max(settings.http_timeout, 5.0))
    )
    capacity = max(1, round(settings.buffer_seconds / settings.interval))
    poster = UsagePoster(
        Origin(settings.callback_url, timeout=settings.http_timeout), signer, settings.node_name, capacity=capacity
    )
    return Agent(settings, kube, poster), poster


def main(argv: Sequence[str] | None = None) -> int:
    settings = load_settings(argv)
    logging.basicConfig(
        level=getattr(logging, settings.log_level.upper(), logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s %(message)s",
    )
    from gshare_agent.cgroups import CgroupV1, check_v2
    from gshare_agent.gpu import load_parser_alone

    load_parser_alone()

    try:
        check_v2(settings.cgroup_root)
    except CgroupV1 as exc:
        logging.getLogger("gshare.agent").error("%s", exc)
        return 2
    agent, poster = build(settings)
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    sender = threading.Thread(target=poster.run, name="usage-poster", daemon=True)
    sender.start()
    logging.getLogger("gshare.agent").info(
        "sampling the session pods of node %s every %ss", settings.node_name, settings.interval
    )
    try:
        agent.run(stop)
    finally:
        poster.stop()
        sender.join(timeout=settings.http_timeout + 1)
    return 0
