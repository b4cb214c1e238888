"""SSH from outside the cluster (issue 16, Build: SSH and web endpoints reachable from outside):
the operator, under the shipped RBAC, gives each session with an SSH endpoint a port of its
range in the ingress controller's TCP services ConfigMap (ingress-nginx's
`--tcp-services-configmap` format, `"<port>": "<namespace>/<service>:<port>"`), reports
`ssh://<public host>:<port>` as the session's SSH URL, keeps the port across reconciles, gives
another session another port, and takes the port back when the session goes."""

from __future__ import annotations

from kubernetes_asyncio import client

from tests.integration.operator.conftest import NS, OperatorFactory, Receiver, eventually
from tests.integration.operator.test_operator import apply_session, session
from tests.k8s.apiserver import KubeApiServer
from tests.k8s.kubelet import Kubelet
from tests.k8s.rbac import manifest_authorizer

OPERATOR = "system:serviceaccount:gshare-system:gshare-operator"
TCP = ("gshare-system", "tcp-services")


def _ssh_url(receiver: Receiver, name: str) -> str | None:
    for report in reversed(receiver.session_reports(name)):
        for endpoint in report.get("endpoints") or []:
            if endpoint["name"] == "ssh":
                return str(endpoint["url"])
    return None


async def test_each_session_gets_a_port_of_the_ingress_controller_and_gives_it_back(
    cluster: KubeApiServer,
    kube_client: client.ApiClient,
    operators: OperatorFactory,
    kubelet: Kubelet,
    receiver: Receiver,
) -> None:
    cluster.authorizer = manifest_authorizer()
    cluster.tokens["operator-token"] = OPERATOR
    operator = await operators.start(
        token="operator-token", ssh_host="ssh.gpu.example.org", ssh_tcp_services="/".join(TCP), ssh_ports="30000-30002"
    )
    await apply_session(kube_client, session("s-one"))
    await apply_session(kube_client, session("s-two"))
    urls = {}
    for name in ("s-one", "s-two"):
        urls[name] = await eventually(
            lambda n=name: (u := _ssh_url(receiver, n)) and u.startswith("ssh://ssh.gpu.example.org:") and u,
            message=f"{name}: SSH URL from outside",
        )
    ports = {name: int(url.rsplit(":", 1)[1]) for name, url in urls.items()}
    assert len(set(ports.values())) == 2 and all(30000 <= p <= 30002 for p in ports.values())
    cm = cluster.get("configmaps", TCP[1], TCP[0])
    assert cm is not None
    # each entry targets the session's Service on its SSH endpoint's port (2222 in these sessions)
    assert cm["data"] == {str(ports[n]): f"{NS}/{n}:2222" for n in ports}
    service = cluster.get("services", "s-one", NS)
    assert service is not None and {"name": "ssh", "port": 2222, "targetPort": 2222, "protocol": "TCP"} in [
        {k: p[k] for k in ("name", "port", "targetPort", "protocol")} for p in service["spec"]["ports"]
    ]

    # reconciling again keeps the port; the ConfigMap is not written again
    version = cm["metadata"]["resourceVersion"]
    operator.controller.enqueue("s-one")
    await operator.controller.wait_idle()
    assert cluster.get("configmaps", TCP[1], TCP[0])["metadata"]["resourceVersion"] == version  # type: ignore[index]

    # the session goes: its port is given back, the other's stays
    async with client.ApiClient(cluster.configuration()) as admin:
        await client.CustomObjectsApi(admin).delete_namespaced_custom_object(
            "gshare.io", "v1alpha1", NS, "gsharesessions", "s-one"
        )
    await eventually(
        lambda: (
            (cluster.get("configmaps", TCP[1], TCP[0]) or {}).get("data") == {str(ports["s-two"]): f"{NS}/s-two:2222"}
        ),
        message="the port of the deleted session given back",
    )
    await eventually(lambda: cluster.get("gsharesessions", "s-one", NS) is None)
