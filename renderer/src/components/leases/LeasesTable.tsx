// The "Leases" table, virtualised: only the rows in view are in the DOM, so 5,000 leases stay
// smooth. Real table semantics (role table/row/columnheader/cell); one tab stop, then arrow keys
// move the cursor row, Enter opens it, Space ticks it.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, type KeyboardEvent } from 'react';
import type { Lease } from '../../../../shared/domain';
import { useLeaseListStore } from '../../state/lease-list-store';
import { useUiStore } from '../../state/ui-store';
import { useNow } from '../use-now';
import { leaseColumns, leaseGridTemplate } from './lease-columns';
import { LeaseRow } from './LeaseRow';

export const leaseRowHeight = 32;

function SelectAllCheckbox({ rows }: { rows: readonly Lease[] }) {
  const checked = useLeaseListStore((s) => s.checked);
  const setChecked = useLeaseListStore((s) => s.setChecked);
  const ref = useRef<HTMLInputElement>(null);
  const count = rows.reduce((n, lease) => n + (checked.has(lease.id) ? 1 : 0), 0);
  const all = rows.length > 0 && count === rows.length;
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = count > 0 && !all;
  }, [count, all]);
  const toggle = (): void => setChecked(all ? [] : rows.map((lease) => lease.id));
  return <input ref={ref} type="checkbox" aria-label="Select all shown leases" checked={all} onChange={toggle} disabled={rows.length === 0} />;
}

function HeaderRow({ rows }: { rows: readonly Lease[] }) {
  const sort = useLeaseListStore((s) => s.sort);
  const sortBy = useLeaseListStore((s) => s.sortBy);
  return (
    <div role="rowgroup" className="leases-head">
      <div role="row" aria-rowindex={1} className="lease-row head" style={{ gridTemplateColumns: leaseGridTemplate }}>
        <div role="columnheader" className="cell-check"><SelectAllCheckbox rows={rows} /></div>
        {leaseColumns.map((column) => (
          <div role="columnheader" key={column.key} aria-sort={sort?.column === column.key ? sort.direction : 'none'}>
            <button type="button" className="sort" onClick={() => sortBy(column.key)}>
              {column.label}
              <span aria-hidden="true" className="sort-mark">{sort?.column === column.key ? (sort.direction === 'ascending' ? ' ▲' : ' ▼') : ''}</span>
            </button>
          </div>
        ))}
      </div>
    </div>
  );
}

export function LeasesTable({ rows }: { rows: readonly Lease[] }) {
  const tableRef = useRef<HTMLDivElement>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const cursor = useLeaseListStore((s) => s.cursorLeaseId);
  const setCursor = useLeaseListStore((s) => s.setCursor);
  const checked = useLeaseListStore((s) => s.checked);
  const toggleChecked = useLeaseListStore((s) => s.toggleChecked);
  const openLeaseId = useUiStore((s) => s.selectedLeaseId);
  const selectLease = useUiStore((s) => s.selectLease);
  const now = useNow(1000);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => leaseRowHeight,
    overscan: 12,
    getItemKey: (index) => rows[index]?.id ?? index,
  });

  const open = useCallback((leaseId: string) => {
    setCursor(leaseId);
    selectLease(leaseId);
    tableRef.current?.focus({ preventScroll: true });
  }, [setCursor, selectLease]);

  const onToggleChecked = useCallback((leaseId: string) => {
    setCursor(leaseId);
    toggleChecked(leaseId);
  }, [setCursor, toggleChecked]);

  const scrollIntoView = (index: number): void => {
    const element = scrollRef.current;
    if (!element) return;
    const top = index * leaseRowHeight;
    if (top < element.scrollTop) element.scrollTop = top;
    else if (top + leaseRowHeight > element.scrollTop + element.clientHeight) element.scrollTop = top + leaseRowHeight - element.clientHeight;
  };

  const moveTo = (index: number): void => {
    const clamped = Math.max(0, Math.min(rows.length - 1, index));
    const lease = rows[clamped];
    if (!lease) return;
    setCursor(lease.id);
    scrollIntoView(clamped);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const target = event.target as HTMLElement;
    if (target.closest('[role="columnheader"]')) return;
    const onControl = target !== event.currentTarget;
    const index = rows.findIndex((lease) => lease.id === cursor);
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? leaseRowHeight * 10) / leaseRowHeight) - 1);
    const moves: Record<string, number> = { ArrowDown: index + 1, ArrowUp: index === -1 ? 0 : index - 1, PageDown: index + page, PageUp: index - page, Home: 0, End: rows.length - 1 };
    const next = moves[event.key];
    if (next !== undefined) {
      event.preventDefault();
      moveTo(next);
      return;
    }
    if (onControl || !cursor || index === -1) return;
    if (event.key === 'Enter') {
      event.preventDefault();
      selectLease(cursor);
    } else if (event.key === ' ') {
      event.preventDefault();
      toggleChecked(cursor);
    }
  };

  const items = virtualizer.getVirtualItems();
  return (
    <>
    <div
      ref={tableRef}
      role="table"
      aria-label="Leases"
      aria-rowcount={rows.length + 1}
      aria-colcount={leaseColumns.length + 1}
      aria-describedby="leases-keys"
      tabIndex={0}
      className="leases-table"
      onKeyDown={onKeyDown}
    >
      <HeaderRow rows={rows} />
      <div role="rowgroup" ref={scrollRef} className="leases-body">
        <div className="leases-spacer" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const lease = rows[item.index];
            if (!lease) return null;
            return (
              <LeaseRow
                key={lease.id}
                lease={lease}
                rowIndex={item.index + 2}
                top={item.start}
                height={leaseRowHeight}
                now={now}
                isCursor={lease.id === cursor}
                isOpen={lease.id === openLeaseId}
                isChecked={checked.has(lease.id)}
                onOpen={open}
                onToggleChecked={onToggleChecked}
              />
            );
          })}
        </div>
      </div>
    </div>
    <p id="leases-keys" className="sr-only">Arrow keys move between leases, Enter opens one, Space selects it for a bulk action.</p>
    </>
  );
}
