/**
 * The Dockerfile and compose.yaml, read as files (no container runtime runs here): the image
 * starts the entry point `npm start` runs, so the two cannot drift apart, and the compose
 * example wires three replicas, one Redis and one HTTP entry together.
 */
import { existsSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { EnvSchema } from '../../src/config/config.js';
import { compiledPath, npmStart, parseStartCommand, repoRoot } from '../helpers/entry.js';

interface Instruction {
  keyword: string;
  args: string;
}

/** The Dockerfile's instructions by stage, continuation lines joined, comments dropped. */
function dockerStages(text: string): Instruction[][] {
  const joined = text.replace(/\\\n/g, ' ');
  const stages: Instruction[][] = [];
  const args = new Map<string, string>();
  for (const line of joined.split('\n')) {
    const match = /^\s*([A-Z]+)\s+(.*)$/.exec(line);
    if (!match?.[1] || match[2] === undefined) continue;
    const instruction = { keyword: match[1], args: match[2].trim() };
    if (instruction.keyword === 'ARG' && stages.length === 0) {
      const [name, value = ''] = instruction.args.split('=');
      if (name) args.set(name, value);
    }
    if (instruction.keyword === 'FROM') {
      instruction.args = instruction.args.replace(
        /\$\{(\w+)\}/g,
        (_, name: string) => args.get(name) ?? '',
      );
      stages.push([]);
    }
    stages.at(-1)?.push(instruction);
  }
  return stages;
}

const dockerfile = readFileSync(`${repoRoot}/Dockerfile`, 'utf8');
const stages = dockerStages(dockerfile);
const final = stages.at(-1) ?? [];
const only = (keyword: string) => final.filter((i) => i.keyword === keyword);

describe('Dockerfile', () => {
  it('runs the entry point npm start runs (compiled: src/*.ts becomes dist/*.js)', () => {
    const [cmd] = only('CMD');
    expect(cmd, 'the final stage has a CMD').toBeDefined();
    const words = z.array(z.string()).parse(JSON.parse(cmd?.args ?? '[]'));
    const image = parseStartCommand(words);
    const start = npmStart();
    expect(image.runner).toBe('node');
    expect(image.entry).toBe(compiledPath(start.entry));
    // Once npm start runs the compiled file itself, the two commands are one.
    if (start.runner === 'node') expect(image.flags).toEqual(start.flags);
    // Variables npm start sets before node (MALLOC_ARENA_MAX) the image sets with ENV.
    const env = only('ENV')
      .map((i) => i.args)
      .join(' ');
    for (const [name, value] of Object.entries(start.env))
      expect(env).toContain(`${name}=${value}`);
    expect(image.flags).toContain('--enable-source-maps');
    // The file compiles from a source that exists.
    const source = image.entry.replace(/^dist\//, 'src/').replace(/\.js$/, '.ts');
    expect(existsSync(`${repoRoot}/${source}`), source).toBe(true);
  });

  it('compiles to where the CMD looks, when the build config is there', () => {
    const path = `${repoRoot}/tsconfig.build.json`;
    // Written for the compiled start (tsc -p tsconfig.build.json); checked once it exists.
    if (!existsSync(path)) return;
    const build = z
      .object({ compilerOptions: z.object({ outDir: z.string(), rootDir: z.string() }) })
      .parse(JSON.parse(readFileSync(path, 'utf8')));
    expect(build.compilerOptions.outDir.replace(/^\.\//, '')).toBe('dist');
    expect(build.compilerOptions.rootDir.replace(/^\.\//, '')).toBe('src');
    expect(dockerfile).toContain('tsc -p tsconfig.build.json');
  });

  it('compiles in a build stage and runs dist/ with production dependencies only, as non-root', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(only('RUN').some((i) => /npm ci\b.*--omit=dev/.test(i.args))).toBe(true);
    expect(only('COPY').some((i) => /--from=build\b.*\bdist\b/.test(i.args))).toBe(true);
    const user = only('USER').at(-1)?.args;
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^(root|0)(:|$)/);
  });

  it('checks liveness on /healthz', () => {
    const [check] = only('HEALTHCHECK');
    expect(check?.args).toContain('/healthz');
  });

  it('keeps DATA_DIR (the embedded watches database) in a volume the app user owns', () => {
    // DATA_DIR's default, relative to the WORKDIR the CMD runs in.
    const workdir = only('WORKDIR').at(-1)?.args ?? '/';
    const dataDir = posix.join(workdir, String(EnvSchema.shape.DATA_DIR.parse(undefined)));
    expect(dataDir).toBe('/app/data');
    const at = (keyword: string, test: (args: string) => boolean) =>
      final.findIndex((i) => i.keyword === keyword && test(i.args));
    const volume = at('VOLUME', (args) => volumePaths(args).includes(dataDir));
    expect(volume, 'VOLUME /app/data').toBeGreaterThan(-1);
    // Created and handed to the user the CMD runs as, before the volume is declared (a
    // change under a declared volume is dropped from the image).
    const user = only('USER').at(-1)?.args.split(':')[0] ?? '';
    const owned = at('RUN', (args) =>
      new RegExp(`mkdir -p ${dataDir}\\b.*chown (-R )?${user}(:${user})? ${dataDir}\\b`).test(args),
    );
    expect(owned, `RUN mkdir -p ${dataDir} && chown ${user}`).toBeGreaterThan(-1);
    expect(owned).toBeLessThan(volume);
    expect(volume).toBeLessThan(at('USER', () => true));
  });
});

/** The paths of a VOLUME instruction, in its JSON or its plain form. */
function volumePaths(args: string): string[] {
  return args.startsWith('[')
    ? z.array(z.string()).parse(JSON.parse(args))
    : args.split(/\s+/).filter(Boolean);
}

const Compose = z.object({
  services: z.record(
    z.string(),
    z.object({
      build: z.unknown().optional(),
      image: z.string().optional(),
      environment: z.record(z.string(), z.string()).optional(),
      volumes: z.array(z.string()).optional(),
      depends_on: z.union([z.record(z.string(), z.unknown()), z.array(z.string())]).optional(),
      profiles: z.array(z.string()).optional(),
      ports: z.array(z.string()).optional(),
    }),
  ),
});

type ComposeFile = z.infer<typeof Compose>;
type Service = ComposeFile['services'][string];

/** The replicas of this image: the HTTP ones start by default, the Socket Mode one on its profile. */
const replicas = (compose: ComposeFile, socket: boolean): Array<[string, Service]> =>
  Object.entries(compose.services).filter(
    ([, service]) =>
      service.build === '.' && (service.profiles?.includes('socket') ?? false) === socket,
  );

describe('compose.yaml', () => {
  const compose = Compose.parse(
    parseYaml(readFileSync(`${repoRoot}/compose.yaml`, 'utf8'), { merge: true }),
  );
  const apps = replicas(compose, false);
  const socketApps = replicas(compose, true);

  it('runs three replicas of this image on one Redis', () => {
    expect(apps).toHaveLength(3);
    const redis = compose.services.redis;
    expect(redis?.image).toMatch(/^redis:/);
    // Behind the password compose's Redis requires (REDIS_PASSWORD in .env).
    for (const [, app] of [...apps, ...socketApps]) {
      expect(app.environment?.REDIS_URL).toBe('redis://redis:6379');
      expect(app.environment?.REDIS_PASSWORD).toBe(
        // biome-ignore lint/suspicious/noTemplateCurlyInString: compose's own interpolation, read verbatim.
        '${REDIS_PASSWORD:?set REDIS_PASSWORD in .env}',
      );
    }
    expect(readFileSync(`${repoRoot}/compose.yaml`, 'utf8')).toMatch(
      /"--requirepass", "\$\{REDIS_PASSWORD/,
    );
  });

  it('puts no password into a URL: compose cannot percent-encode a / + = in one', () => {
    for (const [name, app] of [...apps, ...socketApps]) {
      for (const [variable, value] of Object.entries(app.environment ?? {})) {
        if (/^[a-z]+:\/\//.test(value)) expect(value, `${name} ${variable}`).not.toContain('${');
      }
    }
  });

  it('offers Socket Mode as a profile: one service, no entry, no port, not in HTTP mode by default', () => {
    expect(socketApps.map(([name]) => name)).toEqual(['app-socket']);
    const [, socket] = socketApps[0] ?? [];
    expect(socket?.ports).toBeUndefined();
    // The app token comes from .env; the HTTP replicas blank it, so it cannot switch them.
    expect(socket?.environment).not.toHaveProperty('SLACK_APP_TOKEN');
    for (const [name, app] of apps) expect(app.environment?.SLACK_APP_TOKEN, name).toBe('');
    const entry = Object.values(compose.services).find((service) =>
      service.image?.startsWith('caddy:'),
    );
    expect(Object.keys(entry?.depends_on ?? {})).not.toContain('app-socket');
    expect(entry?.depends_on ?? []).not.toContain('app-socket');
  });

  it('puts one HTTP entry in front of exactly those replicas, routing on /readyz', () => {
    const caddyfile = readFileSync(`${repoRoot}/deploy/Caddyfile`, 'utf8');
    const entry = Object.values(compose.services).find((service) =>
      service.volumes?.some((volume) => volume.startsWith('./deploy/Caddyfile:')),
    );
    expect(entry?.image).toMatch(/^caddy:/);
    const upstreams = /reverse_proxy\s+([^{]+)\{/.exec(caddyfile)?.[1]?.trim().split(/\s+/);
    const port = (name: string) => `${name}:${compose.services[name]?.environment?.PORT}`;
    expect(upstreams?.sort()).toEqual(apps.map(([name]) => port(name)).sort());
    expect(caddyfile).toMatch(/health_uri\s+\/readyz/);
  });
});

describe('compose.yaml watches', () => {
  const compose = Compose.parse(
    parseYaml(readFileSync(`${repoRoot}/compose.yaml`, 'utf8'), { merge: true }),
  );
  const apps = [...replicas(compose, false), ...replicas(compose, true)];

  it('gives every replica the one PostgreSQL, so watches are on there', () => {
    const postgres = compose.services.postgres;
    expect(postgres?.image).toMatch(/^postgres:/);
    for (const [name, app] of apps) {
      expect(app.environment?.DATABASE_URL, name).toMatch(/^postgres:\/\/[^@:]+@postgres:5432\//);
      expect(app.environment?.DATABASE_PASSWORD, name).toMatch(/^\$\{POSTGRES_PASSWORD\b/);
      expect(Object.keys(app.depends_on ?? {}), name).toContain('postgres');
    }
  });
});

/** `README "Section"` and `docs/x.md, "Section"`: each must name a heading that exists. */
function pointersIn(text: string): Array<{ file: string; heading: string }> {
  const found: Array<{ file: string; heading: string }> = [];
  for (const match of text.matchAll(/\b(README|[\w/]+\.md),? "([^"]+)"/g)) {
    const file = match[1] === 'README' ? 'README.md' : (match[1] ?? '');
    found.push({ file, heading: match[2] ?? '' });
  }
  return found;
}

describe('pointers from the Dockerfile and compose.yaml into the docs', () => {
  for (const source of ['Dockerfile', 'compose.yaml']) {
    it(`${source} names only sections that exist`, () => {
      for (const { file, heading } of pointersIn(readFileSync(`${repoRoot}/${source}`, 'utf8'))) {
        const doc = readFileSync(`${repoRoot}/${file}`, 'utf8');
        expect(
          doc.split('\n').some((line) => /^#+ /.test(line) && line.replace(/^#+ /, '') === heading),
          `${file} "${heading}"`,
        ).toBe(true);
      }
    });
  }
});
