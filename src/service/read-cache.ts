// Serialized GET answers, kept until the next write. A list page costs a SQLite read, a JSON.parse and a
// render of each of its 100 documents; answering it again from bytes is what lets the service keep up with a
// bare node:http server under load (bench/service-throughput.ts). Correctness rests on one rule: an entry
// is only served while the store's version is the one it was made at, and every write (ours, or another
// process's on the same SQLite file) moves that version.

export interface CachedReply {
  status: number;
  payload: Buffer;
}

/** Bytes held at most; past it the oldest entries go first. */
const MAX_BYTES = 32 * 1024 * 1024;

export class ReadCache {
  private readonly entries = new Map<string, CachedReply>();
  private bytes = 0;
  private version = '';

  constructor(private readonly maxBytes = MAX_BYTES) {}

  /** The entry for key if it was made at `version`; any other version empties the cache first. */
  get(key: string, version: string): CachedReply | undefined {
    if (version !== this.version) {
      this.entries.clear();
      this.bytes = 0;
      this.version = version;
      return undefined;
    }
    return this.entries.get(key);
  }

  set(key: string, version: string, reply: CachedReply): void {
    if (version !== this.version || reply.payload.length > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.payload.length;
      this.entries.delete(key);
    }
    this.entries.set(key, reply);
    this.bytes += reply.payload.length;
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= v.payload.length;
    }
  }
}
