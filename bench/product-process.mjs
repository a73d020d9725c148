// The built product run as a whole program for a bench (bench/listings.mjs, bench/search-mix.mjs): started on
// a database with the bench's settings, its access log read for each request's server time, stopped.
import { spawn } from 'node:child_process';

export class ProductProcess {
  /** Server time of each request, by request id, read from the product's access log. */
  serverMs = new Map();
  /** The product's standard output not yet read (readAccessLog). */
  #output = [];
  #child;

  /**
   * `env`: the product's settings beside the bench's defaults (no Redis, workers in process, the
   * /api limit lifted); `nodeArgs`: Node's own options (--cpu-prof, --import).
   */
  async start({ main, databaseUrl, port, dataDir, env = {}, nodeArgs = [] }) {
    const settings = {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      FRONTEND_DIR: 'none',
      // The access log (one line per request, with its milliseconds) gives the server time; as in production.
      LOG_LEVEL: 'log',
      WORKERS_IN_PROCESS: 'true',
      API_RATE_LIMIT: '1000000',
      ...env,
    };
    delete settings.REDIS_URL;
    this.#child = spawn(process.execPath, [...nodeArgs, main], { env: settings, stdio: ['ignore', 'pipe', 'inherit'] });
    // Kept as it comes and read between measurements (readAccessLog): parsing each line as it
    // arrived took the bench's CPU while the product answered the next request.
    this.#output = [];
    this.#child.stdout.setEncoding('utf8').on('data', (chunk) => this.#output.push(chunk));
    for (;;) {
      if (this.#child.exitCode !== null) throw new Error('the product exited');
      try {
        if ((await fetch(`http://127.0.0.1:${port}/api/health`, { method: 'OPTIONS' })).status === 204) return;
      } catch {
        // not yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  get pid() {
    return this.#child?.pid;
  }

  /** The server time of each request logged so far, into serverMs. */
  readAccessLog() {
    const text = this.#output.join('');
    const complete = text.lastIndexOf('\n') + 1;
    this.#output = [text.slice(complete)];
    for (const line of text.slice(0, complete).split('\n')) {
      if (!line.includes('"context":"HTTP"')) continue;
      const entry = JSON.parse(line);
      if (entry.requestId && typeof entry.ms === 'number') this.serverMs.set(entry.requestId, entry.ms);
    }
  }

  /** Waits (up to 5 s) until the access log holds each of these requests: it is written just after each response. */
  async awaitLogged(ids) {
    for (let waited = 0; (this.readAccessLog(), !ids.every((id) => this.serverMs.has(id))) && waited < 5000; waited += 50)
      await new Promise((r) => setTimeout(r, 50));
  }

  async stop() {
    const child = this.#child;
    if (!child || child.exitCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}
