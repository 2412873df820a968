import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const WORKER_MAIN = fileURLToPath(new URL('../../workers/main.js', import.meta.url));
export const WEB_MAIN = fileURLToPath(new URL('../../api/main.js', import.meta.url));

/** Forks a compiled process entry and waits for its readiness message. */
export async function startProcess(
  script: string,
  env: Record<string, string>,
  readyType: 'ready' | 'listening',
): Promise<{ child: ChildProcess; message: Record<string, unknown> }> {
  const child = fork(script, [], {
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'silent', ENABLE_SIMULATORS: 'true', ...env },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const message = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} not ready in 30 s: ${stderr}`)), 30_000);
    child.on('message', (m: Record<string, unknown>) => {
      if (m.type === readyType) {
        clearTimeout(timer);
        resolve(m);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code}: ${stderr}`));
    });
  });
  return { child, message };
}

/** Sends SIGTERM and resolves with the exit code once the process is gone. */
export function stopProcess(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

export async function waitFor<T>(probe: () => Promise<T | undefined | null | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
