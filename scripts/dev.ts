/**
 * `npm run dev`: the API on :3000 (restarts on change) and Vite's dev server on :5173
 * with hot reload, proxying /api and /media to the API.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

const bin = (name: string) => path.resolve('node_modules/.bin', name);
const children = [
  spawn(bin('tsx'), ['watch', '--clear-screen=false', 'src/server/main.ts'], {
    stdio: 'inherit',
    // The API must not build or serve the web app in dev; Vite does.
    env: { ...process.env, CANTO_DEV: '1' },
  }),
  spawn(bin('vite'), ['--port', '5173'], { stdio: 'inherit' }),
];

const stop = () => {
  for (const child of children) child.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => code && stop());
