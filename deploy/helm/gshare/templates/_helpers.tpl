{{/* The control plane's callback base URL: the API serves POST /callbacks/session-status,
/callbacks/inventory and /callbacks/usage. */}}
{{- define "gshare.callbackUrl" -}}
{{- .Values.operator.callbackUrl | default (printf "%s/callbacks" (trimSuffix "/" .Values.controlPlane.url)) -}}
{{- end }}

{{- define "gshare.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{- define "gshare.labels" -}}
app.kubernetes.io/part-of: gshare
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/instance: {{ .Release.Name }}
helm.sh/chart: {{ .Chart.Name }}-{{ .Chart.Version }}
{{- end -}}

{{- define "gshare.operatorAccount" -}}
system:serviceaccount:{{ .Values.namespaces.system }}:gshare-operator
{{- end -}}

{{- define "gshare.restrictedContainer" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
capabilities:
  drop: [ALL]
{{- end -}}

{{- define "gshare.restrictedPod" -}}
runAsNonRoot: true
runAsUser: 10001
runAsGroup: 10001
seccompProfile:
  type: RuntimeDefault
{{- end -}}
