// `npm run test:node24`: the whole suite (`npm test`) on Node 24, as CI runs it after the suite on the machine's
// Node. Node 24 comes from the npm registry (scripts/fetch-node.ts) and goes first on PATH, so `node`, npm's
// scripts, vitest and every child process the tests start run on it; npm itself is the machine's. Extra
// arguments go to vitest: `npm run test:node24 -- test/build`.
//   EDGEOPS_TEST_HOST_NODE: the Node that ran this script (the one `npm ci` built better-sqlite3 for), for the
//   test that compares the two SQLite drivers.
import { execFileSync, spawnSync } from 'node:child_process';
import { dirname, delimiter } from 'node:path';
import { ROOT, fetchNode } from './fetch-node.ts';

const MAJOR = 24;
const node = await fetchNode(MAJOR);
const env = { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}`, EDGEOPS_TEST_HOST_NODE: process.execPath };
const onPath = execFileSync('node', ['--version'], { env, encoding: 'utf8' }).trim();
if (!onPath.startsWith(`v${MAJOR}.`)) {
  process.stderr.write(`test:node24: \`node\` on PATH is ${onPath}, not Node ${MAJOR} (${node})\n`);
  process.exit(1);
}
process.stdout.write(`test:node24: node ${onPath} (${node})\n`);
const args = process.argv.slice(2);
const result = spawnSync('npm', ['test', ...(args.length > 0 ? ['--', ...args] : [])], { cwd: ROOT, env, stdio: 'inherit' });
process.exit(result.status ?? 1);
