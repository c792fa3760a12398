// feature: the amendments in the ledger's Amendments object (those whose rules the engine
// implements, all enabled from genesis), by ID with name; `feature` narrows to one by name or ID.
import type { JsonObject } from '../../core/contract';
import { amendmentsKey } from '../../core/keylets';
import { knownAmendmentNames } from '../../core/amendments';
import type { MethodSpec } from '../context';
import { RpcError } from '../errors';

// Every amendment some ledger in this process enables (a live map: names added by later ledgers show).
const NAMES = knownAmendmentNames();

export const featureMethod: MethodSpec = {
  handler: ({ node, params }) => {
    const entry = node.validated().read(amendmentsKey());
    const enabled = new Set(Array.isArray(entry?.Amendments) ? (entry.Amendments as string[]) : []);
    const describe = (id: string): JsonObject => ({
      enabled: enabled.has(id),
      name: NAMES.get(id) ?? id,
      supported: NAMES.has(id),
    });
    if (params.feature !== undefined) {
      if (typeof params.feature !== 'string') throw new RpcError('badFeature');
      const wanted = params.feature.toUpperCase();
      const id = [...NAMES].find(([key, name]) => key === wanted || name.toUpperCase() === wanted)?.[0];
      if (!id) throw new RpcError('badFeature');
      return { [id]: describe(id) };
    }
    const features: JsonObject = {};
    for (const id of new Set([...NAMES.keys(), ...enabled])) features[id] = describe(id);
    return { features };
  },
};
