import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// Google is a third party these tests cannot reach: this stand-in answers its tokeninfo and
// OpenID userinfo endpoints with the real payloads and statuses. The e2e setup uses it too.

export interface FakeAccount {
  aud: string;
  sub: string;
  email?: string;
  scope: string;
  expiresIn: number;
}

/**
 * A local stand-in for Google's tokeninfo and userinfo endpoints with their real payload shapes
 * and statuses (tokeninfo: 400 invalid_token; userinfo: 401 invalid_request).
 */
export function startFakeGoogle(
  accounts: Record<string, FakeAccount>,
): Promise<{ server: Server; base: string; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    hits.push(url.pathname);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/tokeninfo') {
      const account = accounts[url.searchParams.get('access_token') ?? ''];
      if (!account || account.expiresIn <= 0) {
        return send(400, { error: 'invalid_token', error_description: 'Invalid Value' });
      }
      return send(200, {
        azp: account.aud,
        aud: account.aud,
        sub: account.sub,
        scope: account.scope,
        exp: String(Math.floor(Date.now() / 1000) + account.expiresIn),
        expires_in: String(account.expiresIn),
        ...(account.email ? { email: account.email, email_verified: 'true' } : {}),
        access_type: 'online',
      });
    }
    if (url.pathname === '/v1/userinfo') {
      const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      const account = accounts[token];
      if (!account) return send(401, { error: 'invalid_request', error_description: 'Invalid Credentials' });
      return send(200, {
        sub: account.sub,
        name: 'Grace Hopper',
        given_name: 'Grace',
        family_name: 'Hopper',
        picture: 'https://lh3.googleusercontent.com/a/grace=s96-c',
        ...(account.email ? { email: account.email, email_verified: true } : {}),
      });
    }
    send(404, { error: 'not_found' });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits }),
    ),
  );
}
