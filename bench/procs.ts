/**
 * App processes for the benchmark: started the way `npm start` starts them (the package's
 * start script in a shell, node_modules/.bin on the PATH), measured through /proc for the
 * whole process tree (RSS and CPU time of every process below the shell's parent).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { request } from 'undici';

/** Clock ticks per second of /proc's utime and stime: 100 on Linux. */
const TICKS_PER_SECOND = 100;

export interface AppCommand {
  name: string;
  cwd: string;
  /** A shell command line, like a package.json script. */
  script: string;
}

export function startScript(cwd: string): string {
  const pkg = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  const script = pkg.scripts?.start;
  if (!script) throw new Error(`${cwd}/package.json has no start script`);
  return script;
}

interface ProcRow {
  pid: number;
  ppid: number;
  ticks: number;
  rssPages: number;
}

function readProcs(): ProcRow[] {
  const rows: ProcRow[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name (field 2) may hold spaces; everything after its ')' is fixed.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      rows.push({
        pid: Number(entry),
        ppid: Number(fields[1]),
        ticks: Number(fields[11]) + Number(fields[12]),
        rssPages: Number(fields[21]),
      });
    } catch {
      // The process ended between readdir and read.
    }
  }
  return rows;
}

const PAGE_BYTES = 4096;

export interface TreeSample {
  rssBytes: number;
  cpuMs: number;
  processes: number;
}

/** RSS and CPU time of `root` and every process below it. */
export function sampleTree(root: number): TreeSample {
  const rows = readProcs();
  const children = new Map<number, ProcRow[]>();
  for (const row of rows) {
    const list = children.get(row.ppid) ?? [];
    list.push(row);
    children.set(row.ppid, list);
  }
  const self = rows.find((row) => row.pid === root);
  const pending = self ? [self] : [];
  const sample: TreeSample = { rssBytes: 0, cpuMs: 0, processes: 0 };
  while (pending.length > 0) {
    const row = pending.pop();
    if (!row) break;
    sample.rssBytes += row.rssPages * PAGE_BYTES;
    sample.cpuMs += (row.ticks * 1000) / TICKS_PER_SECOND;
    sample.processes += 1;
    pending.push(...(children.get(row.pid) ?? []));
  }
  return sample;
}

export interface RunningApp {
  name: string;
  port: number;
  child: ChildProcess;
  /** Milliseconds from spawn to the first 200 from /healthz. */
  startMs: number;
  sample(): TreeSample;
  stop(): Promise<void>;
}

async function healthy(port: number): Promise<boolean> {
  try {
    const response = await request(`http://127.0.0.1:${port}/healthz`);
    await response.body.dump();
    return response.statusCode === 200;
  } catch {
    return false;
  }
}

/** Whether nothing listens on `port` now (on every address, as the app will listen). */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

/**
 * A port nothing listens on, below Linux's ephemeral range (32768 and up), where the load
 * generator's own client sockets take their ports. Another program may take it between this
 * probe and the app's listen, so startApp tries again on EADDRINUSE.
 */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < 100; tries += 1) {
    const candidate = 20_000 + Math.floor(Math.random() * 12_000);
    if (await canListen(candidate)) return candidate;
  }
  throw new Error('no free port between 20000 and 32000');
}

/** Starts the app on a free port; a port taken meanwhile costs another try, not the run. */
export async function startApp(
  command: AppCommand,
  env: Record<string, string>,
): Promise<RunningApp> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOnPort(command, await freePort(), env);
    } catch (error) {
      if (attempt >= 5 || !(error instanceof Error && error.message.includes('EADDRINUSE'))) {
        throw error;
      }
    }
  }
}

async function startOnPort(
  command: AppCommand,
  port: number,
  env: Record<string, string>,
): Promise<RunningApp> {
  const kept = Object.entries(process.env).filter(
    ([name]) => !/^(SLACK_|ERP_|REDIS_URL$|PORT$|LOG_LEVEL$|CACHE_|NODE_OPTIONS$)/.test(name),
  );
  const began = performance.now();
  const child = spawn('sh', ['-c', command.script], {
    cwd: command.cwd,
    env: {
      ...Object.fromEntries(kept),
      PATH: `${join(command.cwd, 'node_modules/.bin')}:${process.env.PATH ?? ''}`,
      PORT: String(port),
      ...env,
    },
    // Its own process group, so stop() ends the shell and whatever it started.
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-2000);
  });
  // 'close', not 'exit': by then stderr is read to its end, so the error names the cause.
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  while (!(await healthy(port))) {
    if (gone) throw new Error(`${command.name} exited before /healthz answered:\n${stderr}`);
    if (performance.now() - began > 60_000) throw new Error(`${command.name}: no /healthz in 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const startMs = performance.now() - began;
  const pid = child.pid ?? -1;
  return {
    name: command.name,
    port,
    child,
    startMs,
    sample: () => sampleTree(pid),
    stop: async () => {
      if (!gone) {
        try {
          process.kill(-pid, 'SIGTERM');
        } catch {
          // Already gone.
        }
      }
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (!gone) process.kill(-pid, 'SIGKILL');
    },
  };
}
