// A value a beforeAll hook makes, usable as a plain module-level const. A test file written as
//   const { svc, c } = serviceForFile();
// instead of `let svc; let c; beforeAll(...); afterAll(...)` reads the same in every test, and the start/stop
// code lives in one helper. Property reads, writes and `in` go to the value set by then.

export interface Late<T extends object> {
  /** Stands for the value; using it before `set` throws, naming `what`. */
  readonly ref: T;
  set(value: T): void;
  /** The value, or undefined when the hook did not get to set it (for afterAll clean-up). */
  get(): T | undefined;
}

export function late<T extends object>(what: string): Late<T> {
  let value: T | undefined;
  const now = (): T => {
    if (value === undefined) throw new Error(`${what} is made in beforeAll: use it inside a test or a hook`);
    return value;
  };
  const ref = new Proxy({} as T, {
    get: (_target, key) => Reflect.get(now(), key),
    set: (_target, key, v) => Reflect.set(now(), key, v),
    has: (_target, key) => Reflect.has(now(), key),
    ownKeys: () => Reflect.ownKeys(now()),
    getOwnPropertyDescriptor: (_target, key) => {
      const d = Reflect.getOwnPropertyDescriptor(now(), key);
      // A proxy may only report properties its (empty, extensible) target could have: configurable ones.
      return d && { ...d, configurable: true };
    },
  });
  return {
    ref,
    set: (v) => {
      value = v;
    },
    get: () => value,
  };
}
