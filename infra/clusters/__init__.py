"""The control plane's side of Kubernetes clusters: registered clusters (kubeconfig sealed at
rest, the operator's callback key), the callback key store and replay caches, node operation
records, and the wiring that turns registered clusters into `KubernetesCluster` adapters."""
