import http from 'node:http';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  json(): Record<string, unknown>;
}

export interface RawOptions {
  headers?: Record<string, string>;
  body?: unknown;
}

/**
 * Sends one request over a real socket with the path exactly as given. `app.inject` cannot: it
 * parses the URL by WHATWG rules, which resolve `/./`, `/../` and `%2e` before the server sees
 * them, as a browser does but a hand-made request need not.
 */
export function rawRequest(base: string, method: string, path: string, options: RawOptions = {}) {
  const { hostname, port } = new URL(base);
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers = { ...(payload === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers };
  return new Promise<RawResponse>((resolve, reject) => {
    const req = http.request({ host: hostname, port, method, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(body) }),
      );
    });
    req.on('error', reject);
    req.end(payload);
  });
}
