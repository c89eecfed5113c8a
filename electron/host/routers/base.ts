import { implement } from '@orpc/server';
import { contract } from '../../../shared/contract';
import type { RequestContext } from '../services';

/** The contract, implemented with the host's request context. Every router starts here. */
export const base = implement(contract).$context<RequestContext>();
