// `npm run dev`: the API server (restarting on change) and Vite's dev server with its proxy to it.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const apiPort = process.env.PORT ?? '3000';
const children = [
  spawn('npm', ['run', 'dev', '-w', 'apps/server'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PORT: apiPort },
  }),
  spawn('npm', ['run', 'dev', '-w', 'apps/web'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, API_PORT: apiPort },
  }),
];
const stop = (signal) => children.forEach((c) => c.kill(signal));
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
for (const c of children)
  c.on('exit', (code) => {
    stop('SIGTERM');
    process.exit(code ?? 0);
  });
