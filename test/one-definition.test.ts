// One place per concept: each helper listed here is defined once in src/, under its name or any name a copy
// of it has gone by. A second definition fails this test: import the one that exists instead. Beside the list,
// the shapes a copy would take without a known name: a hand-written depth-first walk, a replace phase spelled
// as a string, a kind reaching into the concrete client, an import circle.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dependencyOrder } from '../src/graph.ts';
import { filesUnder } from './helpers/source-files.ts';

const src = resolve(import.meta.dirname, '..', 'src');

const walk = (dir: string): string[] => filesUnder(dir, /\.ts$/);

/** Source without comments (a name in a comment or a doc line defines nothing). */
const code = (text: string): string => text.replace(/^\s*\/\*[\s\S]*?\*\//gm, '').replace(/(^|\s)\/\/.*$/gm, '$1');

const files = walk(src).map((f) => ({ file: relative(src, f), text: code(readFileSync(f, 'utf8')) }));

/** Definitions of `name` in one source text: a function, or a const/let/var bound to a value. */
function definitions(text: string, name: string): number {
  const re = new RegExp(String.raw`(?:^|[^\w$.])(?:function\s*\*?\s*${name}\s*[<(]|(?:const|let|var)\s+${name}\s*[:=])`, 'gm');
  return [...text.matchAll(re)].length;
}

interface Concept {
  concept: string;
  /** The helper's name and the names its copies have had. */
  names: string[];
  /** True when the helper may be absent (zero is fine, two never are). */
  optional?: boolean;
}

const CONCEPTS: Concept[] = [
  { concept: 'the JSON object test', names: ['isObj', 'isObject', 'isPlainObject', 'isMapping', 'isRecord', 'isJsonObject'] },
  { concept: "a plan's deletes against max_deletes and max_deletes_per_kind", names: ['checkDeletes', 'deleteStatus', 'countDeletes'] },
  { concept: 'the walk of a dependency graph', names: ['dependencyOrder', 'topological', 'topologicalOrder', 'topoSort', 'nodeLevels'] },
  { concept: 'reachability in a dependency graph', names: ['reaches'] },
  { concept: 'Markdown escaping', names: ['escapeMarkdown', 'markdownEscape', 'escapeMd'], optional: true },
  { concept: "a hostport's claim key", names: ['hostportKey'] },
  { concept: 'the CIDR check', names: ['cidrProblem'] },
  { concept: 'JSON pointer segment escaping', names: ['escapeSegment', 'escapePointerSegment'] },
  { concept: 'JSON pointer splitting', names: ['splitPointer', 'splitJsonPointer', 'segmentsOf'] },
  { concept: 'the natural order of names', names: ['naturalCompare', 'naturalOrder', 'compareNatural'] },
  { concept: 'a field path as people read it', names: ['showPath', 'pointerText', 'readablePath', 'pointerToPath'] },
  { concept: "a path template's parent parameter", names: ['parentParam', 'pathParam'] },
  { concept: "the ownership marker's key", names: ['MARKER_KEY', 'OWNERSHIP_KEY'] },
  { concept: 'the metadata string with the marker', names: ['serializeMetadata', 'storedMetadata', 'lockMetadataString'] },
  { concept: 'the size check of metadata with the marker', names: ['metadataProblem', 'oversizedMetadata'] },
  { concept: 'the API version a request names', names: ['SERVICE_VERSION', 'API_VERSION'] },
  { concept: "the error envelope's builder", names: ['errorEnvelope', 'envelopeOf'] },
  { concept: "the error envelope's reader", names: ['readErrorEnvelope', 'parseErrorEnvelope'] },
  { concept: 'a JSON docs row read back as a document', names: ['docOfRow', 'toDoc', 'rowToDoc'] },
  { concept: "the body a document's create sends", names: ['sentBody', 'createBody', 'sentJson'] },
  { concept: 'the id a body carries for a resource not created yet', names: ['placeholderIds', 'placeholderId'] },
  { concept: 'a word of a command line quoted for a shell', names: ['shellWord', 'shellQuote', 'quoteShell'] },
];

function whereDefined(names: readonly string[]): string[] {
  return files.flatMap((f) => names.flatMap((name) => Array.from({ length: definitions(f.text, name) }, () => `${f.file}: ${name}`)));
}

describe('one definition per helper', () => {
  it('recognizes a definition in each form, and only a definition', () => {
    const text = code(
      [
        'function isObj(v) {}',
        'export function* isObj<T>(v) {}',
        'const isObj = (v) => true;',
        'export const isObj: (v: unknown) => boolean = f;',
        'let isObj = f;',
        'isObj(x); a.isObj = f; const isObjX = 1; // function isObj() {}',
        "import { isObj } from './json.ts'; export { isObj as isPlainObject };",
      ].join('\n'),
    );
    expect(definitions(text, 'isObj')).toBe(5);
    expect(definitions(text, 'isPlainObject')).toBe(0);
  });

  it.each(CONCEPTS)('$concept is defined once', ({ names, optional }) => {
    const found = whereDefined(names);
    if (optional) expect(found.length, found.join('\n')).toBeLessThanOrEqual(1);
    else expect(found.length, `definitions of ${names.join(' / ')}:\n${found.join('\n')}`).toBe(1);
  });
});

describe('no copy under a new name', () => {
  it('only src/graph.ts keeps depth-first visit state', () => {
    const walkers = files.filter((f) => /new Map<[^>]*'(?:visiting|open)'/.test(f.text)).map((f) => f.file);
    expect(walkers).toEqual(['graph.ts']);
  });

  it("a replace's phases are data: only engine/graph.ts spells the old-resource delete's id", () => {
    const spelled = files.filter((f) => f.text.includes('#old')).map((f) => f.file);
    expect(spelled).toEqual(['engine/graph.ts']);
    const parsed = files.filter((f) => /OLD_PHASE|endsWith\(\s*['"`]#/.test(f.text)).map((f) => f.file);
    expect(parsed).toEqual([]);
  });

  it('only contract/json.ts escapes or unescapes a JSON pointer segment by hand', () => {
    const escaping = files.filter((f) => /'~0'|'~1'/.test(f.text)).map((f) => f.file);
    expect(escaping).toEqual(['contract/json.ts']);
    // JavaScript's own escape/unescape (URL encoding) type-check in their place: never call them.
    const globals = files.filter((f) => /(?<![\w.])(?:un)?escape\b(?!\w)(?=\s*[(),])/.test(f.text.replace(/\/\/.*$/gm, ''))).map((f) => f.file);
    expect(globals).toEqual([]);
  });

  it('the kinds reach the service only through the Api interface, never the concrete client', () => {
    const bad = files
      .filter((f) => f.file.startsWith('kinds/'))
      .flatMap((f) => [...f.text.matchAll(/from\s+['"]([^'"]+)['"]/g)].map((m) => m[1]!).filter((t) => t.startsWith('../client/')).map((t) => `${f.file} -> ${t}`));
    expect(bad).toEqual([]);
  });

  it('no module imports itself back through others (type imports included)', () => {
    const imports = new Map(
      files.map((f) => [
        f.file,
        [...f.text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]/gm)].map((m) => relative(src, resolve(dirname(join(src, f.file)), m[1]!))),
      ]),
    );
    const circles: string[] = [];
    Array.from(dependencyOrder(imports.keys(), (file) => imports.get(file) ?? [], (cycle) => circles.push([...cycle, cycle[0]].join(' -> '))));
    expect(circles).toEqual([]);
  });
});
