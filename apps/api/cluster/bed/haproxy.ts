import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { makeProblem } from '@app/contracts';
import { KEEP_ALIVE_SECONDS } from '../../src/keep-alive.js';
import { freePort, sleep, waitFor } from './ports.js';

const HAPROXY = '/usr/sbin/haproxy';

export interface Backend {
  name: string;
  port: number;
}

/**
 * HAProxy from Debian's package in front of the API instances, configured as in
 * docs/operations.md: active health checks on /api/ready, a request id for every request that
 * comes without one, and retries only where the request cannot have reached an instance.
 */
export class LoadBalancer {
  private child: ChildProcess | undefined;
  readonly logs: string[] = [];

  private constructor(
    readonly dir: string,
    readonly port: number,
    readonly statsPort: number,
  ) {}

  static async create(dir: string, backends: Backend[]): Promise<LoadBalancer> {
    fs.mkdirSync(dir, { recursive: true });
    const lb = new LoadBalancer(dir, await freePort(), await freePort());
    fs.writeFileSync(path.join(dir, '503.http'), unavailableAnswer());
    fs.writeFileSync(lb.configFile, haproxyConfig(dir, lb.port, lb.statsPort, backends));
    return lb;
  }

  get configFile(): string {
    return path.join(this.dir, 'haproxy.cfg');
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn(HAPROXY, ['-db', '-f', this.configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    const file = fs.createWriteStream(path.join(this.dir, 'haproxy.log'), { flags: 'a' });
    for (const stream of [child.stdout, child.stderr]) {
      readline.createInterface({ input: stream as NodeJS.ReadableStream }).on('line', (line) => {
        file.write(`${line}\n`);
        this.logs.push(line);
      });
    }
    child.once('exit', () => file.end());
    await waitFor('HAProxy to listen', async () => (await this.serverStates()).size > 0, 15_000);
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(5_000)]);
  }

  /** Each backend server's state as HAProxy's health checks see it (UP, DOWN, …). */
  async serverStates(): Promise<Map<string, string>> {
    const res = await fetch(`http://127.0.0.1:${this.statsPort}/stats;csv`);
    const csv = await res.text();
    const states = new Map<string, string>();
    for (const line of csv.split('\n')) {
      const [proxy, server, ...rest] = line.split(',');
      if (proxy !== 'api' || !server || server === 'BACKEND' || server === 'FRONTEND') continue;
      states.set(server, (rest[15] ?? '').split(' ')[0] ?? '');
    }
    return states;
  }

  /** Waits until HAProxy sees `server` in `state` (e.g. 'UP', 'DOWN'); returns how long it took. */
  waitForServer(server: string, state: string, timeoutMs = 30_000): Promise<number> {
    return waitFor(
      `HAProxy to see ${server} ${state}`,
      async () => (await this.serverStates()).get(server) === state,
      timeoutMs,
    );
  }
}

/**
 * What the balancer answers when no instance is ready (all health checks red): the contract's
 * UNAVAILABLE problem, so a client sees one shape of 503 whoever says it.
 */
function unavailableAnswer(): string {
  const body = JSON.stringify(
    makeProblem('UNAVAILABLE', { detail: 'No instance of the API is ready right now. Try again in a moment.' }),
  );
  return [
    'HTTP/1.1 503 Service Unavailable',
    'content-type: application/problem+json; charset=utf-8',
    'cache-control: no-store',
    'retry-after: 2',
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
    '',
    body,
  ].join('\r\n');
}

function haproxyConfig(dir: string, port: number, statsPort: number, backends: Backend[]): string {
  return `global
  log stdout format raw local0
  maxconn 2000

defaults
  mode http
  log global
  option httplog
  timeout connect 2s
  timeout client 120s
  timeout server 120s
  timeout http-request 10s
  # The instances' answers say "Keep-Alive: timeout=${KEEP_ALIVE_SECONDS}", which the balancer passes
  # on, so a client keeps an idle connection that long: closed sooner (after http-request's 10 s),
  # a request the client sends as the close arrives is lost, and a POST is not sent again.
  timeout http-keep-alive ${KEEP_ALIVE_SECONDS + 3}s
  # A request that never reached an instance (refused connection, or a kept-alive connection
  # the instance had just closed) is sent again, to another instance.
  retries 3
  retry-on conn-failure empty-response
  option redispatch 1
  errorfile 503 ${path.join(dir, '503.http')}

frontend stats
  bind 127.0.0.1:${statsPort}
  stats enable
  stats uri /stats

frontend web
  bind 127.0.0.1:${port}
  # Callers may bring their own request id; everyone else gets one, so the balancer's log line
  # and the instance's log lines of one request share it.
  http-request set-header X-Request-Id %[uuid] unless { req.hdr(x-request-id) -m found }
  http-request capture req.hdr(x-request-id) len 64
  option forwardfor
  log-format "%ci:%cp [%tr] %ft %b/%s %TR/%Tw/%Tc/%Tr/%Ta %ST %B %tsc %rc %{+Q}r reqid=%[capture.req.hdr(0)]"
  default_backend api

backend api
  balance roundrobin
  option httpchk GET /api/ready
  http-check expect status 200
  # A check waits up to 2 s for its answer: without this line HAProxy gives it 'inter' (500 ms),
  # and the one instance left serving during a restart, busy on a busy machine, was taken out
  # for being slow, leaving no instance at all (50 requests answered 503 by the balancer).
  # An instance that is stopping answers 503 at once, and a dead one refuses the connection.
  timeout check 2s
  default-server inter 500ms fastinter 250ms fall 2 rise 2
${backends.map((b) => `  server ${b.name} 127.0.0.1:${b.port} check`).join('\n')}
`;
}
