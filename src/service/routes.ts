// What the service serves: every kind of the contract. A kind the service does more for than its contract says
// (defaults on create, fields it computes, modules, sub-resources, checks across documents) has a resource module
// in resources/ (resource-modules.ts finds them); every other kind is a plain collection, the five standard routes
// with responses as stored (collection.ts).
import { CONTRACT_KINDS } from '../contract/index.ts';
import { defineCollection } from './collection.ts';
import type { ResourceModule } from './resource-def.ts';
import { RESOURCE_MODULES } from './resource-modules.ts';

export const RESOURCES: ResourceModule[] = [
  ...RESOURCE_MODULES,
  ...CONTRACT_KINDS.filter((kind) => !RESOURCE_MODULES.some((m) => m.kinds.includes(kind))).map((kind) => defineCollection({ kind })),
];
