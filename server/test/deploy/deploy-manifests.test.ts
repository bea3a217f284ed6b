import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { REPO_ROOT } from '../../src/config';

/**
 * The deployment files of `deploy/` (docs/operations.md "Deploying") read as an operator's tools would:
 * the compose file parsed and checked for the topology it promises, the Helm chart's templates checked
 * for the objects and probes it promises (this machine has no `helm`: its templates are Go templates,
 * checked here for balanced actions and their content), the Grafana dashboard's queries against the
 * metrics the server exposes. `docker-compose config` and `helm lint` are what docs/operations.md
 * says was run by hand and what was not.
 */
const DEPLOY = path.join(REPO_ROOT, 'deploy');
const read = (file: string) => readFileSync(path.join(DEPLOY, file), 'utf8');

interface ComposeService {
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
  restart?: string;
}

describe('docker-compose.yml', () => {
  const compose = parse(read('docker-compose.yml'), { merge: true }) as {
    services: Record<string, ComposeService>;
    volumes: Record<string, unknown>;
  };
  const services = compose.services;

  it('runs postgres, redis, the one-off migration, two web processes, two workers and a proxy', () => {
    expect(Object.keys(services).sort()).toEqual(
      ['migrate', 'postgres', 'proxy', 'redis', 'web-1', 'web-2', 'worker-1', 'worker-2'].sort(),
    );
    expect(services.migrate).toMatchObject({ command: ['migrate'], restart: 'no' });
    for (const name of ['web-1', 'web-2'])
      expect(services[name]?.environment).toMatchObject({ ROLE: 'web', MIGRATE_ON_START: 'false' });
    for (const name of ['worker-1', 'worker-2']) {
      expect(services[name]?.environment).toMatchObject({ ROLE: 'worker', WORKER_PORT: '8081', MIGRATE_ON_START: 'false' });
    }
    expect(Object.keys(compose.volumes).sort()).toEqual(['caddydata', 'pgdata', 'redisdata', 'storage']);
  });

  it('checks readiness on /readyz and starts the processes after a successful migration', () => {
    for (const name of ['web-1', 'web-2', 'worker-1', 'worker-2']) {
      const service = services[name] as ComposeService;
      expect(service.healthcheck?.test.join(' ')).toContain('/readyz');
      expect(service.depends_on?.migrate).toEqual({ condition: 'service_completed_successfully' });
      expect(service.volumes).toContain('storage:/data');
    }
    for (const name of ['postgres', 'redis']) expect(services[name]?.healthcheck).toBeDefined();
    expect(services.proxy?.depends_on).toMatchObject({ 'web-1': { condition: 'service_healthy' } });
    const caddy = read('Caddyfile');
    expect(caddy).toMatch(/reverse_proxy web-1:8080 web-2:8080/);
    expect(caddy).toMatch(/health_uri \/readyz/);
  });
});

describe('Dockerfile', () => {
  it('builds in stages, installs production dependencies only and runs the bundle as a non-root user', () => {
    const dockerfile = read('Dockerfile');
    expect(dockerfile.match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(3);
    expect(dockerfile).toContain('npm ci --omit=dev');
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toContain('ENTRYPOINT ["node", ".build/server/main.mjs"]');
    // what scripts/build-server.ts leaves outside the bundle must be installed: it is in a dependency
    const serverDependencies = JSON.parse(readFileSync(path.join(REPO_ROOT, 'server', 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    for (const external of ['bee-queue', '@fastify/swagger-ui', 'tsx'])
      expect(serverDependencies.dependencies).toHaveProperty(external);
  });
});

describe('the Helm chart', () => {
  const chartDir = path.join('helm', 'balcao');
  const templates = Object.fromEntries(
    readdirSync(path.join(DEPLOY, chartDir, 'templates')).map((file) => [file, read(path.join(chartDir, 'templates', file))]),
  );
  const all = Object.values(templates).join('\n');

  it('has a chart, values that parse, and templates whose actions open and close in balance', () => {
    expect(parse(read(path.join(chartDir, 'Chart.yaml')))).toMatchObject({ apiVersion: 'v2', name: 'balcao' });
    const values = parse(read(path.join(chartDir, 'values.yaml'))) as Record<string, Record<string, unknown>>;
    expect(Object.keys(values)).toEqual(
      expect.arrayContaining(['image', 'secrets', 'web', 'worker', 'migration', 'storage', 'ingress']),
    );
    for (const [file, text] of Object.entries(templates)) {
      expect(text.split('{{').length, file).toBe(text.split('}}').length);
      const opened = text.match(/\{\{-?\s*(if|range|with|define)\b/g)?.length ?? 0;
      const closed = text.match(/\{\{-?\s*end\b/g)?.length ?? 0;
      expect(closed, `${file}: if/range/with/define vs end`).toBe(opened);
    }
  });

  it('declares the objects an operator needs', () => {
    for (const kind of [
      'Deployment',
      'PodDisruptionBudget',
      'HorizontalPodAutoscaler',
      'Job',
      'Secret',
      'Ingress',
      'PersistentVolumeClaim',
      'Service',
    ]) {
      expect(all).toMatch(new RegExp(`^kind: ${kind}$`, 'm'));
    }
    for (const role of ['web', 'worker']) {
      const deployment = templates[`${role}-deployment.yaml`] as string;
      expect(deployment).toMatch(/readinessProbe:\s+httpGet:\s+path: \/readyz/);
      expect(deployment).toMatch(/livenessProbe:\s+httpGet:\s+path: \/healthz/);
      expect(deployment).toContain('resources:');
      expect(deployment).toContain(`value: ${role}`);
    }
    expect(templates['migration-job.yaml']).toContain('helm.sh/hook: pre-install,pre-upgrade');
    expect(templates['migration-job.yaml']).toContain('args: ["migrate"]');
    expect(templates['ingress.yaml']).toContain('toYaml . | nindent 4');
    expect(read(path.join(chartDir, 'values.yaml'))).toContain('nginx.ingress.kubernetes.io/proxy-read-timeout');
    expect(templates['_helpers.tpl']).toMatch(/name: MIGRATE_ON_START/);
  });

  it('renders its static documents as YAML once the template actions are taken out', () => {
    for (const [file, text] of Object.entries(templates)) {
      if (file.endsWith('.tpl')) continue;
      // each action is replaced by a placeholder scalar; lines that are only an action go
      const skeleton = text
        .split('\n')
        .filter((line) => !/^\s*\{\{[^}]*\}\}\s*$/.test(line))
        .map((line) => line.replace(/\{\{[^}]*\}\}/g, 'x'))
        .join('\n');
      for (const document of parseAllDocuments(skeleton)) expect(document.errors, file).toEqual([]);
    }
  });
});

describe('the Grafana dashboard', () => {
  it('queries only metrics the processes expose', () => {
    const dashboard = JSON.parse(read(path.join('grafana', 'balcao-dashboard.json'))) as {
      panels: Array<{ title: string; targets: Array<{ expr: string }> }>;
    };
    const exposed = [
      'balcao_http_request_duration_seconds_count',
      'balcao_http_request_duration_seconds_bucket',
      'balcao_messages_inbound_total',
      'balcao_messages_outbound_total',
      'balcao_job_queue_depth',
      'balcao_jobs_total',
      'balcao_whatsapp_sessions',
      'balcao_socket_connections',
      'nodejs_eventloop_lag_p99_seconds',
      'process_resident_memory_bytes',
      'process_cpu_seconds_total',
    ];
    const used = new Set(
      dashboard.panels.flatMap((panel) =>
        panel.targets.flatMap((target) => target.expr.match(/\b(?:balcao|nodejs|process)_[a-z0-9_]+/g) ?? []),
      ),
    );
    const unknown = [...used].filter((name) => !exposed.includes(name));
    expect(unknown).toEqual([]);
    expect([...used]).toEqual(expect.arrayContaining(exposed));
  });
});
