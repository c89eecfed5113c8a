// One row of the "Leases" table, positioned by the virtualiser.
import { memo } from 'react';
import type { Lease } from '../../../../shared/domain';
import { leaseColumns, leaseGridTemplate } from './lease-columns';

export interface LeaseRowProps {
  lease: Lease;
  rowIndex: number;
  top: number;
  height: number;
  now: number;
  isCursor: boolean;
  isOpen: boolean;
  isChecked: boolean;
  onOpen: (leaseId: string) => void;
  onToggleChecked: (leaseId: string) => void;
}

export const LeaseRow = memo(function LeaseRow({ lease, rowIndex, top, height, now, isCursor, isOpen, isChecked, onOpen, onToggleChecked }: LeaseRowProps) {
  const classes = ['lease-row', lease.verdict.status === 'unproven' ? 'unproven' : '', isCursor ? 'cursor' : '', isOpen ? 'open' : ''].filter(Boolean).join(' ');
  return (
    <div
      role="row"
      aria-rowindex={rowIndex}
      aria-selected={isCursor}
      aria-current={isOpen ? 'true' : undefined}
      data-lease-id={lease.id}
      className={classes}
      style={{ transform: `translateY(${top}px)`, height, gridTemplateColumns: leaseGridTemplate }}
      onClick={() => onOpen(lease.id)}
    >
      <div role="cell" className="cell-check" onClick={(event) => event.stopPropagation()}>
        <input type="checkbox" tabIndex={-1} aria-label={`Select lease ${lease.id}`} checked={isChecked} onChange={() => onToggleChecked(lease.id)} />
      </div>
      {leaseColumns.map((column) => (
        <div
          role="cell"
          key={column.key}
          className={column.key === 'containment' ? `verdict verdict-${lease.verdict.status}` : `cell-${column.key}`}
          title={column.title?.(lease)}
        >
          {column.key === 'id' ? (
            <button type="button" tabIndex={-1} className="link" title={lease.id}>{lease.id}</button>
          ) : column.cell(lease, now)}
        </div>
      ))}
    </div>
  );
});
