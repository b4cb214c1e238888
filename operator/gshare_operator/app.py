"""Wiring of one operator process: leader election around the controller and inventory."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from kubernetes_asyncio import client, config

from gshare_operator.callbacks import CallbackClient
from gshare_operator.children import ChildSettings
from gshare_operator.controller import Controller
from gshare_operator.gpu import GpuResourceNames
from gshare_operator.inventory import InventoryReporter
from gshare_operator.leader import LeaderElector
from gshare_operator.reconciler import SessionReconciler
from gshare_operator.settings import OperatorSettings
from gshare_operator.signing import CallbackSigner, load_private_key
from gshare_operator.ssh import SshExposure

log = logging.getLogger(__name__)


class Operator:
    def __init__(
        self,
        settings: OperatorSettings,
        api_client: client.ApiClient,
        callbacks: CallbackClient | None,
    ) -> None:
        self.settings = settings
        self.api_client = api_client
        self.callbacks = callbacks
        self.reconciler = SessionReconciler(
            api_client,
            ChildSettings(
                namespace=settings.namespace,
                ingress_domain=settings.ingress_domain,
                ingress_class=settings.ingress_class,
                ingress_tls_secret=settings.ingress_tls_secret,
                gpu_names=GpuResourceNames(
                    hami_gpu=settings.hami_gpu_resource,
                    hami_memory=settings.hami_memory_resource,
                    hami_cores=settings.hami_cores_resource,
                    hami_scheduler=settings.hami_scheduler_name or None,
                    timeslice=settings.timeslice_resource,
                ),
            ),
            callbacks,
            pod_grace_seconds=settings.pod_grace_seconds,
            node_lost_after=settings.node_lost_after,
            ssh=SshExposure.from_settings(settings.ssh_host, settings.ssh_tcp_services, settings.ssh_ports),
        )
        self.controller = Controller(
            api_client,
            self.reconciler,
            namespace=settings.namespace,
            workers=settings.workers,
            resync=settings.resync,
        )
        self.inventory = (
            InventoryReporter(
                api_client,
                callbacks,
                interval=settings.inventory_interval,
                label_selector=settings.node_selector,
                namespace=settings.namespace,
            )
            if callbacks is not None
            else None
        )
        self.elector = (
            LeaderElector(
                api_client,
                namespace=settings.lease_namespace,
                name=settings.lease_name,
                identity=settings.identity,
                lease_duration=settings.lease_duration,
                renew_deadline=settings.renew_deadline,
                retry_period=settings.retry_period,
            )
            if settings.leader_election
            else None
        )

    @property
    def is_leader(self) -> bool:
        return self.elector is None or self.elector.is_leader

    async def lead(self) -> None:
        """The work only the leader does."""
        tasks = [asyncio.create_task(self.controller.run(), name="controller")]
        if self.inventory is not None:
            tasks.append(asyncio.create_task(self.inventory.run(), name="inventory"))
        try:
            await asyncio.gather(*tasks)
        finally:
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    async def run(self) -> None:
        if self.elector is None:
            await self.lead()
            return
        try:
            await self.elector.run(self.lead)
        finally:
            await asyncio.shield(self.elector.release())


async def build_api_client(settings: OperatorSettings) -> client.ApiClient:
    configuration = client.Configuration()
    if settings.in_cluster:
        config.load_incluster_config(client_configuration=configuration)
    else:
        await config.load_kube_config(config_file=settings.kubeconfig, client_configuration=configuration)
    return client.ApiClient(configuration)


def build_callbacks(settings: OperatorSettings) -> CallbackClient | None:
    if not settings.callback_url:
        log.warning("no callback URL: status and inventory are not reported")
        return None
    assert settings.private_key_path is not None
    signer = CallbackSigner(settings.cluster_id, load_private_key(settings.private_key_path))
    return CallbackClient(settings.callback_url, signer)


async def serve(settings: OperatorSettings) -> None:
    api_client = await build_api_client(settings)
    callbacks = build_callbacks(settings)
    try:
        await Operator(settings, api_client, callbacks).run()
    finally:
        if callbacks is not None:
            await callbacks.close()
        await api_client.close()
