import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { CompanyUser } from '../../../shared/schemas/team';
import { TableSummary } from '../../../web/src/features/edit-receipt/components/FieldForm';
import type { FormTable } from '../../../web/src/features/edit-receipt/lib/form';
import { ReceiptRow, type RowHandlers } from '../../../web/src/features/receipts/components/ReceiptRow';
import { UserCard } from '../../../web/src/features/team/components/UserCard';
import { receipt } from './receipt-fixture';

const noop = () => undefined;
const handlers: RowHandlers = { onOpen: noop, onToggleSelect: noop, onToggleFlag: noop, onPreview: noop, onEmail: noop, onRestart: noop, onDelete: noop };

/** The attributes of the first element of `html` matching the tag and holding `marker` among its attributes. */
function tagWith(html: string, tag: string, marker: string): string {
  const found = [...html.matchAll(new RegExp(`<${tag}\\b[^>]*>`, 'g'))].map((m) => m[0]).find((t) => t.includes(marker));
  if (!found) throw new Error(`no <${tag}> with ${marker} in ${html}`);
  return found;
}
const attr = (tagText: string, name: string) => tagText.match(new RegExp(`\\s${name}="([^"]*)"`))?.[1] ?? null;

describe('accessible names of controls that act on one thing', () => {
  it('a documents-list row: the focusable row, Preview and Flag name the document they act on', () => {
    const table = (r: ReturnType<typeof receipt>) =>
      renderToStaticMarkup(
        createElement('table', null, createElement('tbody', null, createElement(ReceiptRow, { receipt: r, selected: false, companyName: null, busyAction: false, handlers }))),
      );
    const html = table(receipt({ original_file_name: 'scan-7.pdf', email_id: 'e1' }));
    const row = tagWith(html, 'tr', 'data-testid="receipt-row"');
    expect(attr(row, 'aria-label')).toBe('Open scan-7.pdf');
    expect(attr(row, 'tabindex')).toBe('0');
    expect(attr(tagWith(html, 'button', 'title="Preview"'), 'aria-label')).toBe('Preview scan-7.pdf');
    expect(attr(tagWith(html, 'button', 'data-testid="row-flag"'), 'aria-label')).toBe('Flag scan-7.pdf');
    expect(attr(tagWith(html, 'button', 'title="Email details"'), 'aria-label')).toBe('Email details of scan-7.pdf');
    expect(attr(tagWith(html, 'input', 'type="checkbox"'), 'aria-label')).toBe('Select scan-7.pdf');

    const flagged = table(receipt({ original_file_name: ' ', receipt_id: 'R42', flag: true }));
    const flaggedButton = tagWith(flagged, 'button', 'data-testid="row-flag"');
    // a toggle keeps its name; its state is aria-pressed
    expect(attr(flaggedButton, 'aria-label')).toBe('Flag R42');
    expect(attr(flaggedButton, 'aria-pressed')).toBe('true');
    expect(attr(flaggedButton, 'title')).toBe('Unflag');
    // busy with another action: the row's buttons stay focusable (aria-disabled, not disabled)
    const busy = renderToStaticMarkup(
      createElement('table', null, createElement('tbody', null, createElement(ReceiptRow, { receipt: receipt({ original_file_name: 'b.pdf', status: 'failed', can_be_restarted: true }), selected: false, companyName: null, busyAction: true, handlers }))),
    );
    for (const marker of ['data-testid="row-flag"', 'aria-label="Try Again b.pdf"', 'aria-label="Delete b.pdf"']) {
      const button = tagWith(busy, 'button', marker);
      expect(attr(button, 'aria-disabled')).toBe('true');
      expect(button).not.toMatch(/\sdisabled=""/);
    }
    // a row that cannot be opened (processing) says nothing of opening
    const processing = table(receipt({ original_file_name: 'wait.pdf', status: 'processing' }));
    expect(attr(tagWith(processing, 'tr', 'data-testid="receipt-row"'), 'aria-label')).toBeNull();
  });

  it('the edit screen: the Row and Open buttons of a table summary name the table, their visible texts kept', () => {
    const lines: FormTable = { id: 't1', schemaId: 'line_items', label: 'Line items', columns: [], rows: [], grid: undefined } as unknown as FormTable;
    const html = renderToStaticMarkup(createElement(TableSummary, { table: lines, onOpen: noop, onAdd: noop, readOnly: false, drafts: {}, errors: {} }));
    // (not 'Add row …': the Lines pop-up's own button is found by the name 'Add row')
    const add = tagWith(html, 'button', 'Add a row');
    expect(attr(add, 'aria-label')).toBe('Add a row to Line items');
    expect(html).toMatch(/<\/svg>\s*Row<\/button>|> Row<\/button>/);
    const open = tagWith(html, 'button', 'data-testid="open-line_items"');
    expect(attr(open, 'aria-label')).toBe('Open Line items');
    expect(html).toContain('>Open</button>');
  });

  it('a team card: Edit User Details and Delete User are described by the card name', () => {
    const user = {
      user_id: 'u2',
      name: 'Ona',
      surname: 'Onaite',
      role: 'user',
      email: 'ona@in.example',
      can_be_deleted: true,
      user: { email: 'ona@example.com', created_at: '2025-01-01T00:00:00.000Z', last_login: null },
    } as unknown as CompanyUser;
    const html = renderToStaticMarkup(createElement(UserCard, { user, onEdit: noop, onDelete: noop }));
    const heading = tagWith(html, 'h3', 'team-name');
    const nameId = attr(heading, 'id');
    expect(nameId).toBeTruthy();
    expect(html).toContain('Ona Onaite</h3>');
    const edit = tagWith(html, 'button', 'btn-secondary');
    const del = tagWith(html, 'button', 'text-danger');
    expect(attr(edit, 'aria-describedby')).toBe(nameId);
    expect(attr(del, 'aria-describedby')).toBe(nameId);
    expect(html).toContain('Edit User Details</span></button>');
    expect(html).toContain('Delete User</span></button>');
  });
});
