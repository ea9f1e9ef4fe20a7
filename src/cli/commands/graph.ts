// `edgeops graph [PATH] [--format mermaid|dot] [--plan]`: the manifests' dependency graph. Without --plan it
// reads the manifests only and never contacts the service; with --plan it plans as `edgeops plan` does (list
// GETs only, the same connection options) and marks every resource with its planned action.
import { Option, type Command } from 'commander';
import * as graphing from '../../operations/graph.ts';
import { refuseBases } from '../../manifest/environment/base-users.ts';
import { loadDesired } from '../../pipeline.ts';
import { GRAPH_FORMAT_NAMES, GRAPH_FORMATS, type GraphFormat } from '../../render/graph-formats.ts';
import { VIEWS } from '../../render/views.ts';
import { keyMaterial, withConnection } from '../connect.ts';
import type { CliContext } from '../context.ts';
import { learnSecrets } from '../learn-secrets.ts';
import { addAdoptOptions, addSharedOptions, resolveSettings, type SharedFlags } from '../settings.ts';

interface GraphFlags extends SharedFlags {
  format: string;
  plan?: boolean;
}

export function registerGraph(program: Command, ctx: CliContext, done: (code: number) => void): void {
  const cmd = program
    .command('graph')
    .description("print the manifests' dependency graph (Mermaid or DOT); --plan marks each resource with its planned action")
    .argument('[path]', 'manifest file or directory (every *.yaml/*.yml under it)', '.')
    .addOption(new Option('--format <format>', 'graph language').choices(GRAPH_FORMAT_NAMES).default(GRAPH_FORMAT_NAMES[0]))
    .addOption(new Option('--plan', 'plan against the service (list GETs only, as `edgeops plan`) and mark each resource create, update, replace, delete or no-op'));
  addSharedOptions(addAdoptOptions(cmd))
    .addHelpText('after', `
A node is a resource (Kind/name), an edge a reference one document makes to another (a backend, IP policies,
certificate authorities, a rule's policy, a route's edge), labelled with its field. A literal id is a node of
its own, dashed. The service options are used only with --plan; without it nothing is sent anywhere.

Exit codes: 0 printed, 1 error (invalid manifests, or with --plan an error of the plan).

Examples:
  $ edgeops graph
  $ edgeops graph infra/ --format dot | dot -Tsvg > graph.svg
  $ edgeops graph --plan --local                  # each resource marked with what apply would do`)
    .action(async (path: string, flags: GraphFlags) => {
      const format = flags.format as GraphFormat; // commander has checked it against GRAPH_FORMAT_NAMES
      // A base's documents hold variables only a stack gives values: the graph of a stack that uses it is the answer.
      refuseBases([path], process.cwd(), 'graph');
      // A plan of part of a stack would draw the rest as deletes: --plan takes whole stacks, as plan does.
      const desired = await loadDesired([path], ctx.env, { stack: flags.stack, wholeStacks: flags.plan === true ? 'graph --plan' : undefined });
      learnSecrets(ctx, desired);
      const view: graphing.GraphView = {
        graph: (graph) => ctx.out(GRAPH_FORMATS[format](graph)),
        // The graph is on stdout; the plan's errors go to stderr, as the text plan shows them.
        planErrors: (p, footer) => ctx.err(VIEWS.text({ color: false }).plan(p, footer)),
      };
      const request: graphing.GraphRequest = { desired: async () => desired };
      // Checked with or without --plan, as validate checks them: one command line serves both.
      const settings = resolveSettings(flags, ctx.env, desired.config, ctx.stdout.isTTY === true);
      if (!flags.plan) {
        await graphing.run(request, { view, redact: ctx.redact });
        done(0);
        return;
      }
      request.plan = { stack: settings.stack, adopt: settings.adopt, material: keyMaterial(settings, ctx.env) };
      await withConnection(settings, [path], ({ api }) => graphing.run(request, { api, view, redact: ctx.redact }));
      done(0);
    });
}
