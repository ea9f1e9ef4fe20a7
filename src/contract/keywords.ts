// The contract's custom JSON Schema keywords (see schema.ts), as ajv compiles them: each failure carries the
// ValueProblem of keyword-checks.ts in params.problem. The keywords generate code that calls the plain functions
// of CONTRACT_KEYWORD_FNS, never closures: ajv's standalone code of a schema (scripts/build.ts) then names them
// as `CONTRACT_KEYWORD_FNS["<name>"]` and imports keyword-checks.ts, so the built CLI judges bodies exactly as a
// run-time compile does.
import { _, type Ajv, type Code, type CodeKeywordDefinition, type KeywordCxt } from 'ajv';
import { CONTRACT_KEYWORD_FNS } from './keyword-checks.ts';
import type { BodySchema } from './schema.ts';

type FnName = keyof typeof CONTRACT_KEYWORD_FNS;

/** The code naming one of CONTRACT_KEYWORD_FNS in the validator being generated. */
function fnRef(cxt: KeywordCxt, name: FnName): Code {
  return cxt.gen.scopeValue('func', { ref: CONTRACT_KEYWORD_FNS[name], code: _`CONTRACT_KEYWORD_FNS[${name}]` });
}

/** A keyword failing with the problem `name` finds: `args` are the code of its arguments. */
function problemKeyword(keyword: string, name: FnName, args: (cxt: KeywordCxt) => Code, def: Partial<CodeKeywordDefinition>): CodeKeywordDefinition {
  return {
    keyword,
    ...def,
    error: { message: `must pass "${keyword}" keyword validation`, params: ({ params }) => _`{problem: ${params.problem!}}` },
    code(cxt) {
      const found = cxt.gen.const('found', _`${fnRef(cxt, name)}(${args(cxt)})`);
      cxt.setParams({ problem: found });
      cxt.fail(found);
    },
  };
}

/** Adds the contract's keywords to an ajv instance. */
export function addContractKeywords(ajv: Ajv): Ajv {
  ajv.addKeyword({ keyword: 'errorCode', schemaType: 'string' });
  ajv.addKeyword({
    keyword: 'maxBytes', type: 'string', schemaType: 'number',
    code: (cxt) => cxt.fail(_`${fnRef(cxt, 'tooLong')}(${cxt.schemaCode}, ${cxt.data})`),
  });
  ajv.addKeyword(problemKeyword('rule', 'rule', (cxt) => _`${cxt.schemaCode}, ${cxt.data}`, { schemaType: 'string' }));
  ajv.addKeyword(problemKeyword('distinct', 'distinct', (cxt) => _`${cxt.schemaCode}, ${cxt.data}`, { type: 'array', schemaType: 'object' }));
  ajv.addKeyword(problemKeyword('mapKeys', 'mapKeys', (cxt) => _`${cxt.schemaCode}, ${cxt.data}`, { type: 'object', schemaType: 'string' }));
  // The code is the field's own errorCode, known when the schema compiles.
  ajv.addKeyword(problemKeyword('refused', 'refused', (cxt) => _`${cxt.schemaCode}, ${(cxt.parentSchema as BodySchema).errorCode ?? null}`, { schemaType: 'string' }));
  return ajv;
}
