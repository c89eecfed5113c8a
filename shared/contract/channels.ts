// Channel names are derived from the contract, never typed by hand at call sites.
// A channel is a procedure path joined with dots ("leases.watch"); its kind says whether the
// transport answers once (invoke) or streams (subscribe).
import { getEventIteratorSchemaDetails, isContractProcedure, type AnyContractRouter, type AnySchema } from '@orpc/contract';

export type ChannelKind = 'invoke' | 'subscribe';
export interface Channel { readonly name: string; readonly path: readonly string[]; readonly kind: ChannelKind }

export function deriveChannels(router: AnyContractRouter, prefix: readonly string[] = []): Channel[] {
  if (isContractProcedure(router)) {
    const output: AnySchema = (router['~orpc'] as { outputSchema: AnySchema }).outputSchema;
    const kind: ChannelKind = getEventIteratorSchemaDetails(output) ? 'subscribe' : 'invoke';
    return [{ name: prefix.join('.'), path: prefix, kind }];
  }
  return Object.entries(router).flatMap(([key, child]) => deriveChannels(child as AnyContractRouter, [...prefix, key]));
}
