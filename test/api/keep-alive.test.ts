import test from 'ava';
import { KEEP_ALIVE_MS } from '../../api/http/keep-alive.js';
import { startProcess, WEB_MAIN } from '../helpers/processes.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';

let env: TestDeps;
let web: Awaited<ReturnType<typeof startProcess>>;

test.before(async () => {
  env = await createTestDeps();
  web = await startProcess(
    WEB_MAIN,
    { DATABASE_URL: env.database.url, APP_KEY: env.deps.config.appKey!.toString('hex'), PORT: '0', HOST: '127.0.0.1' },
    'listening',
  );
});
test.after.always(async () => {
  if (web && web.child.exitCode === null) {
    const exited = new Promise((resolve) => web.child.once('exit', resolve));
    web.child.kill('SIGTERM');
    await exited;
  }
  await env?.close();
});

test('the web process keeps idle connections 65 s, beyond the idle timeout of the balancers in front of it', async (t) => {
  const res = await fetch(`http://127.0.0.1:${web.message.port}/api/health`);
  t.is(res.status, 200);
  t.is(res.headers.get('keep-alive'), `timeout=${KEEP_ALIVE_MS / 1000}`);
});
