// The command palette (Ctrl+K / Cmd+K): type to filter, arrows to choose, Enter to run.
import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import { Dialog } from '../Dialog';

export interface PaletteCommand {
  readonly id: string;
  readonly label: string;
  readonly enabled: boolean;
  readonly hint?: string;
  readonly run: () => void;
}

export function CommandPalette({ commands, onClose }: { commands: readonly PaletteCommand[]; onClose: () => void }) {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  const shown = useMemo(() => {
    const needle = query.trim().toLowerCase();
    return commands.filter((c) => c.label.toLowerCase().includes(needle));
  }, [commands, query]);
  const activeIndex = Math.min(active, Math.max(0, shown.length - 1));
  const run = (command: PaletteCommand | undefined): void => {
    if (!command?.enabled) return;
    onClose();
    command.run();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>): void => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((activeIndex + step + shown.length) % Math.max(1, shown.length));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      run(shown[activeIndex]);
    }
  };
  return (
    <Dialog label="Command palette" onClose={onClose} className="palette">
      <input
        type="text"
        role="combobox"
        aria-label="Search commands"
        aria-expanded="true"
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={shown[activeIndex] ? `${listId}-${shown[activeIndex].id}` : undefined}
        placeholder="Type a command…"
        value={query}
        onChange={(e) => { setQuery(e.target.value); setActive(0); }}
        onKeyDown={onKeyDown}
        autoFocus
      />
      <ul role="listbox" id={listId} aria-label="Commands" className="palette-list">
        {shown.map((command, index) => (
          <li
            key={command.id}
            id={`${listId}-${command.id}`}
            role="option"
            aria-selected={index === activeIndex}
            aria-disabled={!command.enabled}
            className={index === activeIndex ? 'active' : undefined}
            onMouseEnter={() => setActive(index)}
            onClick={() => run(command)}
          >
            {command.label}
            {command.hint && <span className="muted"> — {command.hint}</span>}
          </li>
        ))}
        {shown.length === 0 && <li role="option" aria-selected="false" aria-disabled="true" className="muted">No command matches.</li>}
      </ul>
    </Dialog>
  );
}
