// `apply --plan FILE` without paths reads the manifests from the paths the saved plan records, as they were given
// to `plan`: relative to the directory plan ran in. From another directory they name nothing (or not the stack),
// so a failure to read them says where they came from and how to give the paths instead.
import { EdgeopsError, ManifestError } from '../errors.ts';

/** The failures that are about the paths themselves, not about what the manifests say. */
const PATH_FAILURES = new Set(['E_NO_MANIFESTS', 'E_PATH_NOT_FOUND', 'E_PARTIAL_STACK']);

/** `err`, or when it is about paths a saved plan recorded, the same error saying so. */
export function fromSavedPaths(err: unknown, file: string, paths: readonly string[], cwd: string): unknown {
  if (!(err instanceof EdgeopsError) || err instanceof ManifestError || !PATH_FAILURES.has(err.code)) return err;
  const list = paths.map((p) => `"${p}"`).join(', ');
  return new EdgeopsError(
    err.code,
    `${err.message}\nNo manifest paths were given, so apply read ${list} as the saved plan ${file} records them (as given to plan, ` +
      `relative to the directory plan ran in), from ${cwd}. Run apply from the directory plan ran in, or give the paths: ` +
      `edgeops apply PATH... --plan ${file}`,
    err.exitCode,
  );
}
