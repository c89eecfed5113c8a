import { Journal } from '../electron/host/journal';
const j = await Journal.open('/tmp/jb200', { maxBytes: Infinity });
const t0 = performance.now(); let n = 0;
for await (const _r of j.replay()) n++;
console.log('replay', n, (performance.now() - t0).toFixed(0), 'ms');
await j.dispose();
