// `validate --format json`: the verdict on the manifests as data, for editors and scripts. Each problem gives its
// position, the field it is about as the JSON plan gives a change's field (`field` in the notation every output
// uses, contract/field-path.ts; `path` the same as a JSON pointer; both '' for a problem of a whole file or
// document) and what is wrong with it; `field: message` is the line the text output prints after the address. Fields are only ever added; removing one or changing its meaning bumps format_version.
import { issuePath, type ManifestIssue } from '../errors.ts';

const VALIDATE_JSON_VERSION = 1;

interface ValidateJsonProblem {
  file: string;
  line: number;
  col: number;
  /** Only for a value an environment brought into its document: `Patch of HTTPSEdge/api; document at base/edges.yaml:1:1`. */
  via?: string;
  /** `Kind/name` of the document, when known. */
  address?: string;
  /** The field as every output shows it: `backend.backend_id`. */
  field: string;
  /** The same field as a JSON pointer: `/backend/backend_id`. */
  path: string;
  /** The service's error code for the same problem, when the contract names one. */
  code?: string;
  message: string;
}

interface ValidateJson {
  format_version: typeof VALIDATE_JSON_VERSION;
  ok: boolean;
  /** How many resources the manifests declare; only when they are valid. */
  resources?: number;
  problems: ValidateJsonProblem[];
}

function validateJson(outcome: { resources: number } | { issues: readonly ManifestIssue[] }): ValidateJson {
  if ('resources' in outcome) return { format_version: VALIDATE_JSON_VERSION, ok: true, resources: outcome.resources, problems: [] };
  return {
    format_version: VALIDATE_JSON_VERSION,
    ok: false,
    problems: outcome.issues.map((i) => ({
      file: i.pos.file,
      line: i.pos.line,
      col: i.pos.col,
      // How an environment brought the value there (a Patch, a {var}), when it did.
      ...(i.pos.via ? { via: i.pos.via } : {}),
      ...(i.address ? { address: i.address } : {}),
      field: issuePath(i),
      path: i.pointer ?? '',
      ...(i.code ? { code: i.code } : {}),
      message: i.message,
    })),
  };
}

export function renderValidateJson(outcome: Parameters<typeof validateJson>[0]): string {
  return `${JSON.stringify(validateJson(outcome), null, 2)}\n`;
}
