// Loaded with `node --import` ahead of a command a benchmark measures: at exit it writes the process's peak RSS
// (the kernel's high-water mark, VmHWM) to stderr, so the whole command's peak is read without changing what the
// command runs. Linux only (no /proc elsewhere: it writes nothing).
import { readFileSync, writeSync } from 'node:fs';

process.on('exit', () => {
  let status = '';
  try {
    status = readFileSync('/proc/self/status', 'utf8');
  } catch {
    return;
  }
  const m = /^VmHWM:\s+(\d+) kB/m.exec(status);
  if (m) writeSync(2, `\nbench-peak-rss ${Number(m[1]) * 1024}\n`);
});
