// The tests run the bin as users do, and the bin runs the built CLI: build dist/ from the sources once, before
// any test, so a fresh clone needs no build step and no test ever runs a stale build.
import { buildCli } from '../scripts/build.ts';

export default async function setup(): Promise<void> {
  await buildCli();
}
