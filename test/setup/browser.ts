import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * `pretest`: the browser tests drive Debian's chromium through playwright-core (playwright's own
 * browser downloads are not used). When it is missing and this is a Debian machine where we are
 * root, it is installed from Debian's packages, as the e-invoice validator installs its tools on
 * first use; otherwise a line says what to install, and the browser tests fail saying the same.
 */
const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
const present = () => CANDIDATES.some((path) => path && existsSync(path));

if (!present()) {
  const root = process.getuid?.() === 0;
  if (root && existsSync('/usr/bin/apt-get')) {
    process.stdout.write("browser tests: installing Debian's chromium\n");
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    spawnSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: ['ignore', 'ignore', 'inherit'], env });
  }
  process.stdout.write(
    present()
      ? 'browser tests: chromium installed\n'
      : 'browser tests: chromium not found; install it (apt-get install chromium) or set CHROMIUM_PATH\n',
  );
}
