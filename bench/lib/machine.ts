// The machine a run happened on, for the results table.
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';

export interface Machine {
  nproc: number;
  cpu: string;
  node: string;
  memory: string;
  platform: string;
}

/** 1-minute load average: other work on the machine skews every figure, so each run records it. */
export function load1(): number {
  return loadavg()[0]!;
}

export function machine(): Machine {
  return {
    nproc: availableParallelism(),
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    node: process.version,
    memory: `${Math.round(totalmem() / 1024 ** 3)} GiB`,
    platform: `${process.platform} ${process.arch}`,
  };
}
