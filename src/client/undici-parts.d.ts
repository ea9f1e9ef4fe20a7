// The CommonJS files of undici that undici-pool.ts loads on their own; their types are undici's (index.d.ts).
declare module 'undici/lib/api/index.js' {
  const api: Record<string, unknown>;
  export default api;
}
declare module 'undici/lib/dispatcher/dispatcher.js' {
  const Dispatcher: unknown;
  export default Dispatcher;
}
declare module 'undici/lib/dispatcher/pool.js' {
  const Pool: unknown;
  export default Pool;
}
