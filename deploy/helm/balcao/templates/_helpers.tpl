{{- define "balcao.fullname" -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "balcao.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- define "balcao.selector" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "balcao.secretName" -}}
{{- default (include "balcao.fullname" .) .Values.secrets.existingSecret -}}
{{- end -}}

{{- define "balcao.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{/* The environment of every Balcão container: plain values, then the Secret's keys. */}}
{{- define "balcao.env" -}}
- name: NODE_ENV
  value: production
- name: PUBLIC_URL
  value: {{ .Values.publicUrl | quote }}
- name: MIGRATE_ON_START
  value: {{ ternary "false" "true" .Values.migration.enabled | quote }}
- name: STORAGE_DIR
  value: /data/storage
- name: MAIL_OUTBOX_DIR
  value: /data/outbox
{{- range $name, $value := .Values.env }}
- name: {{ $name }}
  value: {{ $value | quote }}
{{- end }}
{{- range $name := list "DATABASE_URL" "REDIS_URL" "JWT_SECRET" "FLOWBUILDER_SECRETS_KEY" }}
- name: {{ $name }}
  valueFrom:
    secretKeyRef:
      name: {{ include "balcao.secretName" $ }}
      key: {{ $name }}
{{- end }}
{{- range $name := list "METRICS_TOKEN" "SMTP_URL" }}
- name: {{ $name }}
  valueFrom:
    secretKeyRef:
      name: {{ include "balcao.secretName" $ }}
      key: {{ $name }}
      optional: true
{{- end }}
{{- range $name, $value := .Values.secrets.extra }}
- name: {{ $name }}
  valueFrom:
    secretKeyRef:
      name: {{ include "balcao.secretName" $ }}
      key: {{ $name }}
{{- end }}
{{- end -}}

{{- define "balcao.volumes" -}}
- name: data
  {{- if .Values.storage.persistence.enabled }}
  persistentVolumeClaim:
    claimName: {{ default (printf "%s-storage" (include "balcao.fullname" .)) .Values.storage.persistence.existingClaim }}
  {{- else }}
  emptyDir: {}
  {{- end }}
- name: tmp
  emptyDir: {}
{{- end -}}

{{- define "balcao.volumeMounts" -}}
- name: data
  mountPath: /data
- name: tmp
  mountPath: /tmp
{{- end -}}
