/**
 * The content API's rules: read a document's content, change it (values, rows, boxes picked on the page,
 * grids), validate it, and the company's schema and grid templates. Every change is versioned: it names the
 * version it was made on; a stale version is answered 409 with the current version and nothing is written.
 * Every change writes a history entry. Archived (and busy) documents are read-only (409).
 */
import { conflict, AppError } from '../../../shared/errors';
import type {
  AddLineInput,
  ApplyGridInput,
  ContentItem,
  ContentResponse,
  Grid,
  MoveContentInput,
  PageBoxesResponse,
  SchemaField,
  SelectBoxInput,
  UpdateContentInput,
  UpdateSchemaInput,
  ValidateContentInput,
} from '../../../shared/schemas/content';
import { CONTENT_MSG, GRID_TOO_LARGE, gridWithinLimits, valueError } from '../../../shared/schemas/content';
import { assertEditable, disabledForEditing, MESSAGES } from '../documents/status-machine';
import type { DocumentRecord } from '../documents/types';
import type { DateFormat } from '../recognition/types';
import { contentFromRecognition, type BuildOptions, type PageBoxes } from './build';
import { applyGrid as readGrid, gridFromTemplate, templateKey } from './grid';
import type { ContentCaller, ContentPorts, StoredContent } from './ports';
import { readArea } from './read';
import { companySchema, mergeSchemaOverrides, schemaById, stakeholderKind, type SchemaOverrides } from './schema';
import {
  addRow,
  alignWithSchema,
  deleteRow,
  emptyContent,
  emptyValue,
  findItem,
  gridOf,
  moveRow,
  replaceRows,
  requireItem,
  setValues,
  valueOf,
  walk,
  type ContentDocument,
} from './tree';
import { validateContent, withErrors } from './validate';
import type { AnalyzeExpenseResult, ExtractedFields } from '../recognition/types';

// ---------------------------------------------------------------- stored content

function normaliseItem(raw: Partial<ContentItem> & { id: string; schema_id: string }, parent: string | null, position: number): ContentItem {
  const content = raw.content ? { ...emptyValue(), ...raw.content } : raw.category === 'datapoint' || !raw.category ? emptyValue() : null;
  return {
    id: raw.id,
    schema_id: raw.schema_id,
    category: raw.category ?? 'datapoint',
    parent_content_id: raw.parent_content_id ?? parent,
    children: (raw.children ?? []).map((c, i) => normaliseItem(c as ContentItem, raw.id, i)),
    file: raw.file ?? null,
    content,
    related_content: raw.related_content ?? null,
    position: raw.position ?? position,
    grid: raw.grid ?? null,
    error: null,
  };
}

/** Stored JSON (ours, or a bare list of items) → a content tree. */
export function parseStoredContent(raw: unknown): ContentDocument | undefined {
  if (!raw) return undefined;
  const items = Array.isArray(raw) ? raw : (raw as Partial<StoredContent>).items;
  if (!Array.isArray(items)) return undefined;
  const doc: ContentDocument = { items: items.map((i, n) => normaliseItem(i as ContentItem, null, n)), seq: 0 };
  const seqOf = (id: string) => Number(/-(\d+)$/.exec(id)?.[1] ?? 0);
  doc.seq = Math.max(Number((raw as Partial<StoredContent>).seq ?? 0), ...[...walk(doc.items)].filter((i) => i.category === 'tuple').map((i) => seqOf(i.id)));
  return doc;
}

export function toStored(doc: ContentDocument): StoredContent {
  const strip = (i: ContentItem): ContentItem => ({ ...i, error: null, children: i.children.map(strip) });
  return { format: 'content/v1', items: doc.items.map(strip), seq: doc.seq };
}

/** The summary fields of the document record that follow its content (list columns, search, duplicates). */
export function contentSummary(doc: ContentDocument, receiptType: 'receipt' | 'invoice') {
  const kind = stakeholderKind(receiptType);
  const orNull = (v: string) => v || null;
  return {
    counterparty_name: valueOf(doc, `${kind}_name`),
    counterparty_code: valueOf(doc, `${kind}_code`),
    counterparty_vat_id: valueOf(doc, `${kind}_vat_id`),
    document_number: valueOf(doc, 'document_id'),
    issue_date: orNull(valueOf(doc, 'issue_date')),
    total: orNull(valueOf(doc, 'amount_total')),
    currency: orNull(valueOf(doc, 'currency')),
  };
}

/**
 * For the processing job: content and page boxes from one recognition answer, written to storage. The
 * caller commits the record with the returned content key (and may use `summary` for its fields).
 */
export async function storeRecognition(
  ports: Pick<ContentPorts, 'blobs' | 'settings'>,
  record: DocumentRecord,
  result: AnalyzeExpenseResult,
  opts: { fields?: ExtractedFields; dateFormat?: DateFormat } = {},
): Promise<{ contentKey: string; content: ContentDocument; summary: ReturnType<typeof contentSummary> }> {
  const overrides = record.company_id ? await ports.settings.getSchemaOverrides(record.company_id) : {};
  const build: BuildOptions & { fields?: ExtractedFields; mapOptions?: { dateFormat?: DateFormat } } = {
    overrides,
    pageDocuments: record.pages.map((p) => p.document),
    fields: opts.fields,
    mapOptions: opts.dateFormat ? { dateFormat: opts.dateFormat } : {},
  };
  const { content, boxes } = contentFromRecognition(result, build);
  await ports.blobs.writeBoxes(record, boxes);
  const contentKey = await ports.blobs.writeContent(record, toStored(content));
  return { contentKey, content, summary: contentSummary(content, record.receipt_type) };
}

// ---------------------------------------------------------------- reading

interface Loaded {
  record: DocumentRecord;
  schema: SchemaField[];
  doc: ContentDocument;
}

async function schemaFor(ports: ContentPorts, companyId: string | null): Promise<SchemaField[]> {
  return companySchema(companyId ? await ports.settings.getSchemaOverrides(companyId) : {});
}

async function contentOf(ports: ContentPorts, record: DocumentRecord, schema: SchemaField[]): Promise<Loaded> {
  const raw = record.content_key ? await ports.blobs.readContent(record.content_key) : undefined;
  const doc = alignWithSchema(parseStoredContent(raw) ?? emptyContent(schema), schema);
  return { record, schema, doc };
}

async function load(ports: ContentPorts, caller: ContentCaller, receiptId: string): Promise<Loaded> {
  const record = await ports.documents.load(caller, receiptId);
  return contentOf(ports, record, await schemaFor(ports, record.company_id));
}

/**
 * The content of documents already loaded (an export's, read together by `loadMany`), in their order: each company's
 * fields are read once, not once a document.
 */
export async function loadContents(ports: ContentPorts, records: readonly DocumentRecord[]): Promise<Loaded[]> {
  const schemas = new Map<string, Promise<SchemaField[]>>();
  const schemaOf = (companyId: string | null) => {
    let schema = schemas.get(companyId ?? '');
    if (!schema) schemas.set(companyId ?? '', (schema = schemaFor(ports, companyId)));
    return schema;
  };
  return Promise.all(records.map(async (record) => contentOf(ports, record, await schemaOf(record.company_id))));
}

function stakeholderTemplateKey(doc: ContentDocument, receiptType: 'receipt' | 'invoice'): string | undefined {
  const kind = stakeholderKind(receiptType);
  return templateKey(valueOf(doc, `${kind}_code`), valueOf(doc, `${kind}_name`));
}

async function response(ports: ContentPorts, l: Loaded): Promise<ContentResponse> {
  const errors = validateContent(l.doc, l.schema, l.record.receipt_type);
  const key = stakeholderTemplateKey(l.doc, l.record.receipt_type);
  const template = key && l.record.company_id ? await ports.settings.getGridTemplate(l.record.company_id, key) : undefined;
  return {
    receipt_id: l.record.receipt_id,
    version: l.record.version,
    receipt_type: l.record.receipt_type,
    content: withErrors(l.doc, errors).items,
    errors,
    available_template: Boolean(template),
    read_only: disabledForEditing(l.record),
  };
}

export async function getContent(ports: ContentPorts, caller: ContentCaller, receiptId: string): Promise<ContentResponse> {
  return response(ports, await load(ports, caller, receiptId));
}

export async function validateReceiptContent(ports: ContentPorts, caller: ContentCaller, receiptId: string, input: ValidateContentInput) {
  const l = await load(ports, caller, receiptId);
  const doc = input.items.length ? setValues(l.doc, input.items.filter((i) => findItem(l.doc, i.id)).map((i) => ({ id: i.id, value: i.value }))) : l.doc;
  return { errors: validateContent(doc, l.schema, l.record.receipt_type) };
}

/** Word and line boxes of every page (GET receipts/{id}/bboxes). */
export async function getBoxes(ports: ContentPorts, caller: ContentCaller, receiptId: string): Promise<{ pages: PageBoxesResponse[] }> {
  const record = await ports.documents.load(caller, receiptId);
  const boxes = (await ports.blobs.readBoxes(record)) ?? [];
  const pageNumbers = new Set([...record.pages.map((p) => p.page), ...boxes.map((b) => b.page)]);
  return {
    pages: [...pageNumbers]
      .sort((a, b) => a - b)
      .map((n) => {
        const b = boxes.find((x) => x.page === n);
        const p = record.pages.find((x) => x.page === n);
        return { page: n, file: b?.file ?? p?.document ?? null, status: p?.status ?? 'processed', words: b?.words ?? [], lines: b?.lines ?? [] };
      }),
  };
}

// ---------------------------------------------------------------- changing

function assertVersion(record: DocumentRecord, version: number) {
  if (record.version !== version) throw conflict(MESSAGES.stale, { version: record.version });
}

function labelOf(schema: SchemaField[], schemaId: string): string {
  return schema.find((f) => f.id === schemaId)?.label ?? schemaId;
}

async function commit(ports: ContentPorts, caller: ContentCaller, l: Loaded, doc: ContentDocument, historyName: string): Promise<ContentResponse> {
  const contentKey = await ports.blobs.writeContent(l.record, toStored(doc));
  // `ready` promises a document a confirm would take as it stands: an edit that breaks that sends it back to review.
  const backToReview = l.record.status === 'ready' && validateContent(doc, l.schema, l.record.receipt_type).length > 0;
  const record = await ports.documents.saveContent({ caller, before: l.record, contentKey, content: doc, historyName, backToReview });
  return response(ports, { record, schema: l.schema, doc });
}

async function loadForChange(ports: ContentPorts, caller: ContentCaller, receiptId: string, version: number): Promise<Loaded> {
  const l = await load(ports, caller, receiptId);
  assertEditable(l.record);
  assertVersion(l.record, version);
  return l;
}

/** The history name of a value change: the labels of the fields, at most three. */
export function editedName(schema: SchemaField[], schemaIds: string[]): string {
  const labels = [...new Set(schemaIds.map((id) => labelOf(schema, id)))];
  const shown = labels.slice(0, 3).join(', ');
  return `Edited ${shown}${labels.length > 3 ? ` and ${labels.length - 3} more` : ''}`;
}

/**
 * Whether the document already holds exactly these values (and the place on the page where one is given): a save on
 * an older version that would change nothing. A replayed save does (the client retried one whose answer was lost).
 */
function holdsValues(doc: ContentDocument, items: UpdateContentInput['items']): boolean {
  return items.every((i) => {
    const item = findItem(doc, i.id);
    if (!item || item.category !== 'datapoint' || (item.content?.value ?? '') !== i.value) return false;
    if (i.position !== undefined && JSON.stringify(item.content?.position ?? null) !== JSON.stringify(i.position)) return false;
    return i.page === undefined || (item.content?.page ?? null) === i.page;
  });
}

export async function updateContent(ports: ContentPorts, caller: ContentCaller, receiptId: string, input: UpdateContentInput): Promise<ContentResponse> {
  const l = await load(ports, caller, receiptId);
  assertEditable(l.record);
  // A save on an older version whose values the document already holds (its own earlier try went through, only
  // the answer was lost on the way) is answered as saved, with the document as it is: nothing written, no history.
  // Any value that differs is a real conflict: 409 as before.
  if (l.record.version !== input.version && holdsValues(l.doc, input.items)) return response(ports, l);
  assertVersion(l.record, input.version);
  const fields = schemaById(l.schema);
  // Values are saved only in their format (a date only as YYYY-MM-DD, amounts as 0.00); empty is allowed here.
  const bad = input.items.flatMap((i) => {
    const field = fields.get(requireItem(l.doc, i.id).schema_id);
    const message = field ? valueError(field, i.value, false) : undefined;
    return message ? [{ path: [i.id], message }] : [];
  });
  if (bad.length) throw new AppError('ValidationFailed', CONTENT_MSG.invalid, bad);
  // A value typed back to the one stored (a slip typed over and undone before its save) is no edit: the history names
  // the fields whose values change, and a save that changes none writes nothing.
  const changes = input.items.filter((i) => !holdsValues(l.doc, [i]));
  if (!changes.length) return response(ports, l);
  const doc = setValues(
    l.doc,
    changes.map((i) => ({ id: i.id, value: i.value, position: i.position, page: i.page })),
  );
  const changed = changes.map((i) => requireItem(l.doc, i.id).schema_id);
  return commit(ports, caller, l, doc, editedName(l.schema, changed));
}

function dateFormatOf(doc: ContentDocument, receiptType: 'receipt' | 'invoice'): DateFormat | undefined {
  const f = valueOf(doc, `${stakeholderKind(receiptType)}_date_format`);
  return f ? (f as DateFormat) : undefined;
}

/** Fills datapoint `contentId` (or its related content) from the words printed inside the picked box. */
export async function selectBox(ports: ContentPorts, caller: ContentCaller, receiptId: string, contentId: string, input: SelectBoxInput): Promise<ContentResponse> {
  const l = await loadForChange(ports, caller, receiptId, input.version);
  const item = requireItem(l.doc, contentId);
  if (item.category !== 'datapoint') throw new AppError('BadRequest', `${contentId} is not a field`);
  const field = schemaById(l.schema).get(item.schema_id) ?? { id: item.schema_id, type: 'string' as const };
  const boxes = (await ports.blobs.readBoxes(l.record)) ?? [];
  const page = boxes.find((b) => b.page === input.page);
  if (!page && !l.record.pages.some((p) => p.page === input.page)) throw new AppError('ValidationFailed', `Page ${input.page} does not exist`, [{ path: ['page'], message: `Page ${input.page} does not exist` }]);
  const read = readArea(page?.words ?? [], input.position, field, dateFormatOf(l.doc, l.record.receipt_type));
  // An area without a word would empty the field (a stray swipe on a touch screen did): nothing is written.
  if (read.block_id === null) throw new AppError('ValidationFailed', CONTENT_MSG.noTextInArea, [{ path: ['position'], message: CONTENT_MSG.noTextInArea }]);
  const file = input.file ?? page?.file ?? l.record.pages.find((p) => p.page === input.page)?.document ?? null;
  const doc = setValues(l.doc, [
    { id: contentId, value: read.value, position: read.position, page: input.page, file, block_id: read.block_id, confidence: read.confidence, related: input.is_related_content },
  ]);
  return commit(ports, caller, l, doc, `Read ${labelOf(l.schema, item.schema_id)} from the page`);
}

export async function addLine(ports: ContentPorts, caller: ContentCaller, receiptId: string, multivalueId: string, input: AddLineInput): Promise<ContentResponse & { added: string }> {
  const l = await loadForChange(ports, caller, receiptId, input.version);
  const { doc, rowId } = addRow(l.doc, l.schema, multivalueId, input.after);
  const mv = findItem(doc, rowId)!.parent_content_id!;
  const res = await commit(ports, caller, l, doc, `Added a row to ${labelOf(l.schema, findItem(doc, mv)!.schema_id)}`);
  return { ...res, added: rowId };
}

export async function deleteLine(ports: ContentPorts, caller: ContentCaller, receiptId: string, rowId: string, version: number): Promise<ContentResponse> {
  const l = await loadForChange(ports, caller, receiptId, version);
  const row = requireItem(l.doc, rowId);
  const doc = deleteRow(l.doc, rowId);
  return commit(ports, caller, l, doc, `Deleted a row of ${labelOf(l.schema, findItem(l.doc, row.parent_content_id ?? '')?.schema_id ?? row.schema_id)}`);
}

export async function moveLine(ports: ContentPorts, caller: ContentCaller, receiptId: string, input: MoveContentInput): Promise<ContentResponse> {
  const l = await loadForChange(ports, caller, receiptId, input.version);
  const row = requireItem(l.doc, input.id);
  const doc = moveRow(l.doc, input.id, input.position);
  return commit(ports, caller, l, doc, `Moved a row of ${labelOf(l.schema, findItem(l.doc, row.parent_content_id ?? '')?.schema_id ?? row.schema_id)}`);
}

function pageCount(record: DocumentRecord, boxes: PageBoxes[]): number {
  return Math.max(record.pages.length, ...record.pages.map((p) => p.page), ...boxes.map((b) => b.page), 0);
}

async function applyGridTo(ports: ContentPorts, caller: ContentCaller, l: Loaded, multivalueId: string, grid: Grid, historyName: string): Promise<ContentResponse> {
  const boxes = (await ports.blobs.readBoxes(l.record)) ?? [];
  const mv = l.doc.items.find((i) => i.category === 'multivalue' && (i.id === multivalueId || i.schema_id === multivalueId));
  if (!mv) throw new AppError('NotFound', `No table ${multivalueId}`);
  const { rows, grid: stored } = readGrid(grid, boxes, l.schema, {
    pageCount: pageCount(l.record, boxes),
    dateFormat: dateFormatOf(l.doc, l.record.receipt_type),
    multivalueSchemaId: mv.schema_id,
  });
  const doc = replaceRows(l.doc, l.schema, mv.id, rows, stored);
  return commit(ports, caller, l, doc, historyName);
}

/** POST receipts/{id}/grid: the grid's parts become the table's rows. */
export async function applyReceiptGrid(ports: ContentPorts, caller: ContentCaller, receiptId: string, input: ApplyGridInput): Promise<ContentResponse> {
  const l = await loadForChange(ports, caller, receiptId, input.version);
  return applyGridTo(ports, caller, l, input.content_id ?? 'line_items', { parts: input.parts }, 'Applied the line-items grid');
}

function requireTemplateKey(l: Loaded): string {
  const key = stakeholderTemplateKey(l.doc, l.record.receipt_type);
  const who = stakeholderKind(l.record.receipt_type);
  if (!key) throw new AppError('ValidationFailed', `Fill in the ${who} first`, [{ path: [`${who}_name`], message: `Fill in the ${who} first` }]);
  if (!l.record.company_id) throw new AppError('BadRequest', 'Choose a company for this document first');
  return key;
}

/** POST receipts/{id}/template/grid: saves the document's current grid for its supplier (customer). */
export async function saveGridTemplate(ports: ContentPorts, caller: ContentCaller, receiptId: string, multivalueId = 'line_items'): Promise<ContentResponse> {
  const l = await load(ports, caller, receiptId);
  const key = requireTemplateKey(l);
  const grid = gridOf(l.doc, multivalueId);
  if (!grid?.parts.length) throw new AppError('ValidationFailed', 'Apply a grid first', [{ path: ['grid'], message: 'Apply a grid first' }]);
  // Grids applied before the size bound existed may be larger than a template can hold.
  if (!gridWithinLimits(grid.parts)) throw new AppError('ValidationFailed', GRID_TOO_LARGE, [{ path: ['grid'], message: GRID_TOO_LARGE }]);
  await ports.settings.putGridTemplate(l.record.company_id!, {
    key,
    grid,
    updated_at: ports.clock.now().toISOString(),
    updated_by: caller.userId,
    source_receipt_id: l.record.receipt_id,
  });
  return response(ports, l);
}

/** PUT receipts/{id}/template/grid: applies the supplier's (customer's) saved grid to this document. */
export async function useGridTemplate(ports: ContentPorts, caller: ContentCaller, receiptId: string, version: number, multivalueId = 'line_items'): Promise<ContentResponse> {
  const l = await loadForChange(ports, caller, receiptId, version);
  const key = requireTemplateKey(l);
  const template = await ports.settings.getGridTemplate(l.record.company_id!, key);
  if (!template) throw new AppError('NotFound', 'No grid template for this supplier');
  const boxes = (await ports.blobs.readBoxes(l.record)) ?? [];
  return applyGridTo(ports, caller, l, multivalueId, gridFromTemplate(template.grid, boxes), 'Used the grid template');
}

// ---------------------------------------------------------------- schema

export async function getCompanySchema(ports: ContentPorts, companyId: string): Promise<{ fields: SchemaField[] }> {
  return { fields: await schemaFor(ports, companyId) };
}

/** How often PUT /schemas reads and merges again when another change was written first. */
export const SCHEMA_WRITE_ATTEMPTS = 5;
export const SCHEMA_BUSY = 'The fields configuration was changed at the same time. Please try again.';

/**
 * PUT /schemas: merges the changed fields into the company's overrides. The write is conditioned on the version read
 * (C5); when another admin's change came first, the merge is done again on what they wrote (the input holds only the
 * fields this admin changed, so nothing of theirs is lost), at most SCHEMA_WRITE_ATTEMPTS times, then 409.
 */
export async function updateCompanySchema(ports: ContentPorts, caller: ContentCaller & { companyId: string }, input: UpdateSchemaInput): Promise<{ fields: SchemaField[] }> {
  for (let attempt = 0; attempt < SCHEMA_WRITE_ATTEMPTS; attempt++) {
    const current = await ports.settings.readSchemaOverrides(caller.companyId);
    const next: SchemaOverrides = mergeSchemaOverrides(current.overrides, input);
    const meta = { updated_by: caller.userId, updated_at: ports.clock.now().toISOString() };
    if (await ports.settings.putSchemaOverrides(caller.companyId, next, meta, current.version)) return { fields: companySchema(next) };
  }
  throw conflict(SCHEMA_BUSY);
}

/** The company's name and code as Settings has them now: a document keeps those of its upload. */
export async function currentCompany(ports: ContentPorts, record: Pick<DocumentRecord, 'company_id' | 'company_name' | 'company_code'>): Promise<{ name: string; code: string }> {
  const now = record.company_id ? await ports.settings.getCompany(record.company_id) : undefined;
  return now ?? { name: record.company_name, code: record.company_code };
}

export { load as loadContent };
