// Turns tail entries (chunks of text and markers) into display lines. stdout and stderr keep
// their own partial lines, so interleaved chunks never glue two streams into one line.
import { describeGap, type OutputStreamName, type TailEntry } from '../../../shared/domain';

export type TailLine =
  | { kind: 'text'; stream: OutputStreamName; text: string; at: number }
  | { kind: 'marker'; tone: 'gap' | 'info'; text: string; at: number };

export function toTailLines(entries: readonly TailEntry[]): TailLine[] {
  const lines: TailLine[] = [];
  const open: Partial<Record<OutputStreamName, number>> = {};
  for (const entry of entries) {
    switch (entry.kind) {
      case 'text': {
        const parts = entry.text.split('\n');
        parts.forEach((part, index) => {
          const openIndex = open[entry.stream];
          if (index === 0 && openIndex !== undefined) {
            const line = lines[openIndex];
            if (line?.kind === 'text') line.text += part;
          } else {
            lines.push({ kind: 'text', stream: entry.stream, text: part, at: entry.at });
          }
          open[entry.stream] = lines.length - 1;
        });
        // A chunk ending in "\n" leaves an empty open line: drop it, nothing is pending.
        const last = lines[lines.length - 1];
        if (entry.text.endsWith('\n') && last?.kind === 'text' && last.text === '') {
          lines.pop();
          delete open[entry.stream];
        }
        break;
      }
      case 'gap':
        lines.push({ kind: 'marker', tone: 'gap', text: `[${describeGap(entry.lostBytes, entry.reason)}]`, at: entry.at });
        delete open.stdout;
        delete open.stderr;
        break;
      case 'truncated':
        lines.push({ kind: 'marker', tone: 'gap', text: `[${entry.droppedBytes} bytes truncated: oldest output dropped from this tail]`, at: entry.at });
        break;
      case 'reconnect':
        lines.push({ kind: 'marker', tone: 'info', text: `[stream reconnected (${entry.count}): ${entry.reason}]`, at: entry.at });
        break;
      case 'exit':
        lines.push({ kind: 'marker', tone: 'info', text: entry.signal ? `[exited on ${entry.signal}]` : `[exited with code ${String(entry.exitCode)}]`, at: entry.at });
        break;
    }
  }
  return lines;
}
