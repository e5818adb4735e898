import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { nginxMediaKeyInclude } from '../../src/server/cli/nginx-media-key.ts';

/**
 * Debian's nginx, run unprivileged-style for tests and benches: a generated main config in a
 * temp directory (pid, logs and temp paths inside it, `daemon off`), started as a child
 * process on loopback and stopped by its pid.
 */
export const NGINX_BIN = process.env.NGINX_BIN ?? '/usr/sbin/nginx';
// USER_HZ: the unit of /proc/<pid>/stat's CPU times (100 on Linux builds in practice).
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim()) || 100;

/** Debian's nginx (apt-get install nginx): the site config needs no module beyond it. */
export function nginxAvailable(): boolean {
  return spawnSync(NGINX_BIN, ['-v'], { stdio: 'ignore' }).status === 0;
}

/** The variables of docs/deploy/nginx/canto.conf. */
export type SiteVars = {
  CANTO_LISTEN: string;
  CANTO_SERVER_NAME: string;
  CANTO_UPSTREAM: string;
  CANTO_WEB_DIR: string;
  CANTO_MEDIA_DIR: string;
  /** The include `npm run nginx-media-key` writes (writeMediaKeyInclude). */
  CANTO_MEDIA_KEY_FILE: string;
};

/** Writes the media-key include for `secretKey` as `npm run nginx-media-key` prints it. */
export function writeMediaKeyInclude(file: string, secretKey: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, nginxMediaKeyInclude(secretKey), { mode: 0o600 });
  return file;
}

export const SITE_CONFIG = path.resolve('docs/deploy/nginx/canto.conf');

/**
 * The documented site config with its variables filled in, as `envsubst` with the variable
 * list does it (nginx's own `$variables` stay). Throws if the file uses one not given.
 */
export function renderSiteConfig(vars: SiteVars): string {
  const text = fs.readFileSync(SITE_CONFIG, 'utf8');
  const body = text
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .join('\n');
  const unknown = [...body.matchAll(/\$\{(\w+)\}/g)].map((m) => m[1]!).filter((n) => !(n in vars));
  if (unknown.length) throw new Error(`canto.conf uses unknown variables: ${unknown.join(', ')}`);
  return text.replace(/\$\{(\w+)\}/g, (whole, name: string) =>
    name in vars ? vars[name as keyof SiteVars] : whole,
  );
}

export type RunningNginx = {
  dir: string;
  stop(): Promise<void>;
  errorLog(): string;
  /**
   * CPU seconds nginx's child processes (workers, cache manager) have used so far (Linux
   * /proc), for benches.
   */
  workerCpuSeconds(): number;
};

/**
 * Starts nginx with `http` (the body of the http block) under a main config of its own.
 * Resolves once every port in `ports` accepts connections.
 */
export async function startNginx(options: {
  dir: string;
  http: string;
  ports: number[];
  workers?: number | 'auto';
  /** Main-context directives before `events`, e.g. `load_module` for a module nginx needs. */
  main?: string;
}): Promise<RunningNginx> {
  const { dir } = options;
  fs.mkdirSync(path.join(dir, 'temp'), { recursive: true });
  const temp = (name: string) => path.join(dir, 'temp', name);
  const conf = `
daemon off;
worker_processes ${options.workers ?? 1};
pid ${path.join(dir, 'nginx.pid')};
error_log ${path.join(dir, 'error.log')} warn;
${options.main ?? ''}
events { worker_connections 1024; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  client_body_temp_path ${temp('client_body')};
  proxy_temp_path ${temp('proxy')};
  fastcgi_temp_path ${temp('fastcgi')};
  uwsgi_temp_path ${temp('uwsgi')};
  scgi_temp_path ${temp('scgi')};
${options.http}
}
`;
  const confFile = path.join(dir, 'nginx.conf');
  fs.writeFileSync(confFile, conf);
  // -e: the start-up error log too, so a non-root run never touches /var/log/nginx.
  const args = ['-p', dir, '-c', confFile, '-e', path.join(dir, 'error.log')];
  const child: ChildProcess = spawn(NGINX_BIN, args, {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  const errorLog = () => {
    const file = path.join(dir, 'error.log');
    return `${stderr}${fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : ''}`;
  };
  const stop = async () => {
    if (exited) return;
    child.kill('SIGTERM');
    await Promise.race([exit, new Promise((r) => setTimeout(r, 5_000))]);
    if (!exited) child.kill('SIGKILL');
    await exit;
  };
  const deadline = Date.now() + 10_000;
  for (const port of options.ports) {
    while (!(await accepts(port))) {
      if (exited || Date.now() > deadline) {
        await stop();
        throw new Error(`nginx did not start:\n${errorLog()}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const workerCpuSeconds = () => {
    const master = child.pid!;
    const workers = fs
      .readFileSync(`/proc/${master}/task/${master}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean);
    let ticks = 0;
    for (const pid of workers) {
      let stat: string;
      try {
        stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch {
        // Gone since the listing: the cache loader exits a minute after start.
        continue;
      }
      // Fields after the command name: utime and stime are the 12th and 13th (proc(5)).
      const fields = stat.split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    }
    return ticks / CLOCK_TICKS;
  };
  return { dir, stop, errorLog, workerCpuSeconds };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
