// A service with no key configured accepts any bearer token, for the default account: right for a sandbox on
// this machine, and a whole database handed to anyone when it listens on a network address. So with no key it
// listens on loopback only, unless asked on purpose (`--allow-any-key`).
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { AccountsConfigError } from './accounts.ts';

/** An IPv4 or IPv6 address that only this machine can reach. */
function isLoopbackAddress(address: string): boolean {
  const v4 = /^(?:::ffff:)?(\d+)\.\d+\.\d+\.\d+$/i.exec(address);
  if (v4) return v4[1] === '127';
  return /^(?:0{0,4}:){2,7}0{0,3}1$/.test(address);
}

/**
 * Whether every address `host` names is a loopback one. A name is resolved as listen() would resolve it; one that
 * does not resolve counts as loopback here, since listen() then fails with its own error and serves nobody.
 */
async function isLoopbackHost(host: string): Promise<boolean> {
  if (isIP(host) !== 0) return isLoopbackAddress(host);
  let addresses: { address: string }[];
  try {
    addresses = await lookup(host, { all: true });
  } catch {
    return true;
  }
  return addresses.every((a) => isLoopbackAddress(a.address));
}

/** Refuses, before anything listens, a keyless service on an address others can reach, unless allowed. */
export async function checkExposure(open: boolean, host: string, allowAnyKey: boolean): Promise<void> {
  if (!open || allowAnyKey || (await isLoopbackHost(host))) return;
  throw new AccountsConfigError(
    `--host ${host}: no API key is configured, so anyone who can reach this address could read and change every resource; `
    + 'add a key with --api-key KEY (or --account NAME=KEY, --accounts FILE), or pass --allow-any-key to accept any bearer token there on purpose',
  );
}
