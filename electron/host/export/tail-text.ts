// Turns a process's tail entries into readable text, stdout and stderr apart. Text of one stream is
// joined before anything else happens to it (so redaction sees a secret split across entries);
// losses, truncation, reconnects and the exit are marker lines in both streams, where they happened.
import { describeGap, type TailEntry } from '../../../shared/domain';

export interface TailText {
  stdout: string;
  stderr: string;
}

export interface TailWindow {
  from: number;
  to: number;
}

export function markerLine(entry: Exclude<TailEntry, { kind: 'text' }>): string {
  switch (entry.kind) {
    case 'gap':
      return `[… ${describeGap(entry.lostBytes, entry.reason)} …]`;
    case 'truncated':
      return `[… ${entry.droppedBytes} bytes truncated …]`;
    case 'reconnect':
      return `[… stream reconnected (${entry.count}): ${entry.reason} …]`;
    case 'exit': {
      const code = entry.exitCode === null ? 'no exit code' : `exit code ${entry.exitCode}`;
      return `[… process exited: ${code}${entry.signal === null ? '' : `, signal ${entry.signal}`} …]`;
    }
  }
}

class StreamText {
  private text = '';

  add(chunk: string): void {
    this.text += chunk;
  }

  addLine(line: string): void {
    if (this.text.length > 0 && !this.text.endsWith('\n')) this.text += '\n';
    this.text += `${line}\n`;
  }

  toString(): string {
    return this.text;
  }
}

/** Renders `entries` (in order); with a window, entries outside it are left out and say so. */
export function renderTail(entries: readonly TailEntry[], window?: TailWindow): TailText {
  const out = { stdout: new StreamText(), stderr: new StreamText() };
  const both = (line: string): void => {
    out.stdout.addLine(line);
    out.stderr.addLine(line);
  };
  const inside = window ? entries.filter((e) => e.at >= window.from && e.at <= window.to) : entries;
  if (window && entries.some((e) => e.at < window.from)) both('[… earlier output outside the export window omitted …]');
  for (const entry of inside) {
    if (entry.kind === 'text') out[entry.stream].add(entry.text);
    else both(markerLine(entry));
  }
  if (window && entries.some((e) => e.at > window.to)) both('[… later output outside the export window omitted …]');
  return { stdout: out.stdout.toString(), stderr: out.stderr.toString() };
}
