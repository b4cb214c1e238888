"""gshare's node agent: live usage of the session pods on one node, posted to the control plane.

Entry point: `gshare_agent.main.main(argv) -> int` (`gshare agent`, `python -m gshare_agent`).

The agent is a deployable of its own (one per GPU node, the chart's DaemonSet) and must stay
small: under 30 MiB resident at 100 pods. So it imports only the standard library, the
operator's token format (`gshare_operator.signing`, signing Ed25519 through the libcrypto that
`ssl` loads: `gshare_agent.keys`; `cryptography` only for a P-256 key) and
`prometheus_client`'s text parser; it speaks to the Kubernetes API and the control plane with
`http.client` (kubernetes-asyncio alone is ~73 MiB resident once imported, httpx ~25 MiB).
Nothing is imported here, so `import gshare_agent.cgroups` costs only that module.
"""
