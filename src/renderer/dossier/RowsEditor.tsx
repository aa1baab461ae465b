/** One editor for a dossier's lists of rows (posts, edges): a table of rows, each removable, and Add. */
import type { ReactNode } from 'react';
import type { Bundle } from '../../shared/wire';

export type Row = Record<string, unknown>;

export interface RowsEditorProps {
  bundle: Bundle;
  onChange: (next: Bundle) => void;
  /** The bundle's list this edits. */
  list: 'posts' | 'edges';
  /** The legend and the table's name ("Posts"), and the noun of one row for its buttons ("post"). */
  title: string;
  noun: string;
  /** Column headings before the Remove column. */
  columns: string[];
  /** The rows in the order shown, each with its place in the bundle's list; as stored when not given. */
  order?: (rows: Row[]) => { row: Row; index: number }[];
  rowKey: (row: Row, index: number) => string | number;
  /** A row's cells: `position` counts from 0 in the order shown, `update` merges a patch into the row. */
  cells: (row: Row, position: number, update: (patch: Row) => void) => ReactNode;
  /** The row Add appends. */
  blank: () => Row;
}

const asStored = (rows: Row[]) => rows.map((row, index) => ({ row, index }));

export function RowsEditor(props: RowsEditorProps) {
  const rows = props.bundle[props.list];
  const replace = (next: Row[]) => props.onChange({ ...props.bundle, [props.list]: next });
  const update = (index: number, patch: Row) =>
    replace(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  return (
    <fieldset className="dossier-section">
      <legend>
        {props.title} ({rows.length})
      </legend>
      <table className="menu-table" aria-label={props.title}>
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th key={column}>{column}</th>
            ))}
            <th />
          </tr>
        </thead>
        <tbody>
          {(props.order ?? asStored)(rows).map(({ row, index }, position) => (
            <tr key={props.rowKey(row, index)}>
              {props.cells(row, position, (patch) => update(index, patch))}
              <td>
                <button
                  type="button"
                  aria-label={`Remove ${props.noun} ${position + 1}`}
                  onClick={() => replace(rows.filter((_, i) => i !== index))}
                >
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" onClick={() => replace([...rows, props.blank()])}>
        Add {props.noun}
      </button>
    </fieldset>
  );
}
