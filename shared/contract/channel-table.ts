// The channel table of the console's contract, computed once.
import { deriveChannels, type Channel } from './channels';
import { contract } from './index';

export const channels: readonly Channel[] = Object.freeze(deriveChannels(contract));
export const channelByName: ReadonlyMap<string, Channel> = new Map(channels.map((c) => [c.name, c]));
