from tests.k8s.fixtures import kube_api

__all__ = ["kube_api"]
