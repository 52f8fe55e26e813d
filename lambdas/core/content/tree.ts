/**
 * The content tree of one document and the plain operations on it. Ids: a section, a multivalue and a
 * datapoint outside a row use their schema id; a row (tuple) is `<tuple schema id>-<n>` and a datapoint in a
 * row `<row id>.<schema id>`, so ids are stable and readable. Every operation returns a new tree.
 */
import type { Box, ContentItem, ContentValue, Grid, SchemaField } from '../../../shared/schemas/content';
import { AppError } from '../../../shared/errors';
import { schemaById, schemaChildren } from './schema';

export interface ContentDocument {
  items: ContentItem[];
  /** Last number given to a row id. */
  seq: number;
}

export const emptyValue = (): ContentValue => ({ value: '', position: null, page: null, block_id: null, confidence: null });

function node(field: SchemaField, id: string, parent: string | null, position: number): ContentItem {
  return {
    id,
    schema_id: field.id,
    category: field.category,
    parent_content_id: parent,
    children: [],
    file: null,
    content: field.category === 'datapoint' ? emptyValue() : null,
    related_content: null,
    position,
    grid: null,
    error: null,
  };
}

/** A row of a multivalue with its empty datapoints. */
export function newRow(schema: SchemaField[], tupleField: SchemaField, rowId: string, multivalueId: string, position: number): ContentItem {
  const row = node(tupleField, rowId, multivalueId, position);
  row.children = schemaChildren(schema, tupleField.id).map((f, i) => node(f, `${rowId}.${f.id}`, rowId, i));
  return row;
}

function build(schema: SchemaField[], field: SchemaField, parent: string | null, position: number): ContentItem {
  const item = node(field, field.id, parent, position);
  if (field.category === 'section') {
    item.children = schemaChildren(schema, field.id).map((f, i) => build(schema, f, field.id, i));
  }
  return item;
}

/** An empty content tree for the schema: every section and datapoint, multivalues without rows. */
export function emptyContent(schema: SchemaField[]): ContentDocument {
  return { items: schemaChildren(schema, null).map((f, i) => build(schema, f, null, i)), seq: 0 };
}

export function* walk(items: ContentItem[]): Generator<ContentItem> {
  for (const item of items) {
    yield item;
    yield* walk(item.children);
  }
}

export function findItem(doc: ContentDocument, id: string): ContentItem | undefined {
  for (const item of walk(doc.items)) if (item.id === id) return item;
  return undefined;
}

export function requireItem(doc: ContentDocument, id: string): ContentItem {
  const item = findItem(doc, id);
  if (!item) throw new AppError('NotFound', `No content item ${id}`);
  return item;
}

/** The first datapoint with this schema id (outside rows, a datapoint's id is its schema id). */
export function datapointBySchemaId(doc: ContentDocument, schemaId: string): ContentItem | undefined {
  for (const item of walk(doc.items)) if (item.schema_id === schemaId && item.category === 'datapoint') return item;
  return undefined;
}

export function valueOf(doc: ContentDocument, schemaId: string): string {
  return datapointBySchemaId(doc, schemaId)?.content?.value.trim() ?? '';
}

/** Rows of a multivalue as records of schema id → value. */
export function rowsOf(doc: ContentDocument, multivalueSchemaId: string): Record<string, string>[] {
  const mv = doc.items.find((i) => i.schema_id === multivalueSchemaId);
  return (mv?.children ?? []).map((row) => Object.fromEntries(row.children.map((c) => [c.schema_id, c.content?.value.trim() ?? ''])));
}

/** Deep copy, so operations never change the tree they were given. */
export function cloneDoc(doc: ContentDocument): ContentDocument {
  return structuredClone(doc);
}

export interface ValueUpdate {
  id: string;
  value: string;
  position?: Box | null;
  page?: number | null;
  file?: string | null;
  block_id?: string | null;
  /** Confidence of a value read off the page; values typed by a person get none. */
  confidence?: number | null;
  related?: boolean;
}

/**
 * Sets datapoint values. A value typed by hand keeps the stored position unless `position` is given
 * (null clears it); its confidence becomes null (a person's value).
 */
export function setValues(doc: ContentDocument, updates: ValueUpdate[]): ContentDocument {
  const next = cloneDoc(doc);
  // One walk of the tree for all the updates: a document read with a thousand line items has ten thousand fields.
  const byId = new Map<string, ContentItem>();
  for (const item of walk(next.items)) if (!byId.has(item.id)) byId.set(item.id, item);
  for (const u of updates) {
    const item = byId.get(u.id);
    if (!item) throw new AppError('NotFound', `No content item ${u.id}`);
    if (item.category !== 'datapoint') throw new AppError('BadRequest', `${u.id} is not a field`);
    const current = (u.related ? item.related_content : item.content) ?? emptyValue();
    const value: ContentValue = {
      value: u.value,
      position: u.position === undefined ? current.position : u.position,
      page: u.page === undefined ? (u.position === null ? null : current.page) : u.page,
      block_id: u.block_id === undefined ? (u.position === undefined ? current.block_id : null) : u.block_id,
      confidence: u.confidence !== undefined ? u.confidence : u.value === current.value && u.position === undefined ? current.confidence : null,
    };
    if (u.related) item.related_content = value;
    else item.content = value;
    if (u.file !== undefined) item.file = u.file;
    item.error = null;
  }
  return next;
}

function multivalueOf(doc: ContentDocument, idOrSchemaId: string): ContentItem {
  const mv = doc.items.find((i) => i.category === 'multivalue' && (i.id === idOrSchemaId || i.schema_id === idOrSchemaId));
  if (!mv) throw new AppError('NotFound', `No table ${idOrSchemaId}`);
  return mv;
}

function renumber(children: ContentItem[]) {
  children.forEach((c, i) => (c.position = i));
}

/** Adds an empty row to a multivalue, after row `after` or at the end. Returns the tree and the new row's id. */
export function addRow(doc: ContentDocument, schema: SchemaField[], multivalueId: string, after?: string | null): { doc: ContentDocument; rowId: string } {
  const next = cloneDoc(doc);
  const mv = multivalueOf(next, multivalueId);
  const tuple = schemaChildren(schema, mv.schema_id).find((f) => f.category === 'tuple');
  if (!tuple) throw new AppError('BadRequest', `${multivalueId} has no rows`);
  next.seq += 1;
  const rowId = `${tuple.id}-${next.seq}`;
  const row = newRow(schema, tuple, rowId, mv.id, 0);
  const index = after ? mv.children.findIndex((c) => c.id === after) : -1;
  if (after && index < 0) throw new AppError('NotFound', `No row ${after}`);
  mv.children.splice(index < 0 ? mv.children.length : index + 1, 0, row);
  renumber(mv.children);
  return { doc: next, rowId };
}

/** Appends `count` empty rows to a multivalue in one copy of the document (a read invoice's thousand line items). */
export function appendRows(doc: ContentDocument, schema: SchemaField[], multivalueId: string, count: number): { doc: ContentDocument; rowIds: string[] } {
  const next = cloneDoc(doc);
  const mv = multivalueOf(next, multivalueId);
  const tuple = schemaChildren(schema, mv.schema_id).find((f) => f.category === 'tuple');
  if (!tuple) throw new AppError('BadRequest', `${multivalueId} has no rows`);
  const rowIds: string[] = [];
  for (let i = 0; i < count; i++) {
    next.seq += 1;
    const rowId = `${tuple.id}-${next.seq}`;
    mv.children.push(newRow(schema, tuple, rowId, mv.id, mv.children.length));
    rowIds.push(rowId);
  }
  return { doc: next, rowIds };
}

/** Removes a row (tuple) of a multivalue. */
export function deleteRow(doc: ContentDocument, rowId: string): ContentDocument {
  const next = cloneDoc(doc);
  for (const mv of next.items) {
    const index = mv.children.findIndex((c) => c.id === rowId && c.category === 'tuple');
    if (index >= 0) {
      mv.children.splice(index, 1);
      renumber(mv.children);
      return next;
    }
  }
  throw new AppError('NotFound', `No row ${rowId}`);
}

/** Moves a row to another index of its multivalue. */
export function moveRow(doc: ContentDocument, rowId: string, position: number): ContentDocument {
  const next = cloneDoc(doc);
  for (const mv of next.items) {
    const index = mv.children.findIndex((c) => c.id === rowId && c.category === 'tuple');
    if (index < 0) continue;
    const [row] = mv.children.splice(index, 1);
    mv.children.splice(Math.min(position, mv.children.length), 0, row!);
    renumber(mv.children);
    return next;
  }
  throw new AppError('NotFound', `No row ${rowId}`);
}

/** Replaces all rows of a multivalue (grid apply) and stores its grid. */
export function replaceRows(
  doc: ContentDocument,
  schema: SchemaField[],
  multivalueId: string,
  rows: { values: Record<string, ContentValue>; file: string | null }[],
  grid: Grid | null,
): ContentDocument {
  const next = cloneDoc(doc);
  const mv = multivalueOf(next, multivalueId);
  const tuple = schemaChildren(schema, mv.schema_id).find((f) => f.category === 'tuple');
  if (!tuple) throw new AppError('BadRequest', `${multivalueId} has no rows`);
  const fields = schemaById(schema);
  mv.children = rows.map((r, i) => {
    next.seq += 1;
    const row = newRow(schema, tuple, `${tuple.id}-${next.seq}`, mv.id, i);
    for (const dp of row.children) {
      const v = r.values[dp.schema_id];
      if (v && fields.has(dp.schema_id)) {
        dp.content = v;
        dp.file = r.file;
      }
    }
    return row;
  });
  mv.grid = grid;
  return next;
}

/** Stores a grid on a multivalue without changing its rows. */
export function setGrid(doc: ContentDocument, multivalueId: string, grid: Grid | null): ContentDocument {
  const next = cloneDoc(doc);
  multivalueOf(next, multivalueId).grid = grid;
  return next;
}

export function gridOf(doc: ContentDocument, multivalueId: string): Grid | null {
  return multivalueOf(doc, multivalueId).grid;
}

/**
 * Brings a stored tree in line with the current schema: datapoints added to the schema since the tree was
 * built appear (empty); items whose schema field no longer exists are kept (data is never dropped here).
 */
export function alignWithSchema(doc: ContentDocument, schema: SchemaField[]): ContentDocument {
  const next = cloneDoc(doc);
  const present = new Set([...walk(next.items)].map((i) => i.id));
  for (const field of schemaChildren(schema, null)) {
    if (!present.has(field.id)) next.items.push(build(schema, field, null, next.items.length));
  }
  for (const item of next.items) {
    if (item.category === 'section') {
      for (const f of schemaChildren(schema, item.schema_id)) {
        if (!present.has(f.id)) item.children.push(node(f, f.id, item.id, item.children.length));
      }
    }
    if (item.category === 'multivalue') {
      for (const row of item.children) {
        for (const f of schemaChildren(schema, row.schema_id)) {
          const id = `${row.id}.${f.id}`;
          if (!present.has(id)) row.children.push(node(f, id, row.id, row.children.length));
        }
      }
    }
  }
  return next;
}
