"""Names shared by the operator's modules (and, by value, by the CRD in deploy/crds)."""

GROUP = "gshare.io"
VERSION = "v1alpha1"
PLURAL = "gsharesessions"
KIND = "GShareSession"
API_VERSION = f"{GROUP}/{VERSION}"

FINALIZER = "gshare.io/cleanup"
FIELD_MANAGER = "gshare-operator"

LABEL_SESSION = "gshare.io/session"
LABEL_SESSION_ID = "gshare.io/session-id"
LABEL_MANAGED_BY = "app.kubernetes.io/managed-by"
MANAGED_BY = "gshare-operator"
LABEL_COMPONENT = "app.kubernetes.io/component"
ANNOTATION_SPEC_HASH = "gshare.io/spec-hash"
# The session generation a pod was built for (not part of the hash).
ANNOTATION_GENERATION = "gshare.io/generation"

HOSTNAME_LABEL = "kubernetes.io/hostname"
SHARING_MODE_LABEL = "gshare.io/sharing-mode"

WEB_ENDPOINTS = ("vscode", "jupyterlab", "terminal")
