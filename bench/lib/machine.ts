// The machine a run happened on, for the results table.
import { cpus, totalmem } from 'node:os';
import { availableParallelism } from 'node:os';

export interface Machine {
  nproc: number;
  cpu: string;
  node: string;
  memory: string;
  platform: string;
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
