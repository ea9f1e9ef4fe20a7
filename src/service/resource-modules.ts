// The service's resource modules: every file in resources/, each a kind (or a sub-resource) the service does
// more for than its contract says. They are found by their directory, so such a kind is one new file there and
// no entry in a list. A bundle has no directory to read: the build replaces this module with static imports of
// the same files (scripts/build.ts).
import { readdirSync } from 'node:fs';
import { resourceModuleNames, type ResourceModule } from './resource-def.ts';

const names = resourceModuleNames(readdirSync(new URL('./resources/', import.meta.url)));

export const RESOURCE_MODULES: readonly ResourceModule[] = await Promise.all(
  names.map(async (name) => {
    const loaded = (await import(`./resources/${name}.ts`)) as { default?: ResourceModule };
    if (!loaded.default?.routes) throw new Error(`src/service/resources/${name}.ts is no resource module: it has no default export of defineCollection or a ResourceModule`);
    return loaded.default;
  }),
);
