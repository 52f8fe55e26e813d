/**
 * OpenDocument text (odt) and spreadsheets (ods): `content.xml` read in document order. Text documents:
 * paragraphs, headings, lists and tables, with the page header above and the footer below (from the master
 * pages in `styles.xml`). Spreadsheets: each sheet is a page, each non-empty row a line; a cell's text is
 * what the spreadsheet shows (`text:p`, already formatted). Repeated rows and columns are expanded only when
 * they hold something.
 */
import type { Block, FlowPage, TableCell, TableRow } from './layout';
import { attr, childrenOf, findAll, findFirst, parseXml, tagOf, textValue, type XNode } from './xml';
import type { ZipParts } from './zip';

export const odfParts = (name: string) => name === 'content.xml' || name === 'styles.xml' || name === 'META-INF/manifest.xml' || name === 'mimetype';

/** Repeats of a row or cell that hold text, at most. */
const MAX_REPEAT = 100;

/** Inline content whose text is read as if it were in its parent (spans, links, fields). */
const INLINE_TRANSPARENT = new Set([
  'text:span',
  'text:a',
  'text:meta',
  'text:meta-field',
  'text:ruby',
  'text:ruby-base',
  'text:date',
  'text:time',
  'text:page-number',
  'text:page-count',
  'text:sender-firstname',
  'text:sender-lastname',
  'text:sender-company',
  'text:sender-street',
  'text:sender-city',
  'text:sender-postal-code',
  'text:sender-country',
  'text:sender-email',
  'text:sender-phone-work',
  'text:author-name',
  'text:user-defined',
  'text:variable-get',
  'text:variable-set',
  'text:user-field-get',
  'text:expression',
  'text:text-input',
  'text:drop-down',
  'text:sequence',
  'text:bookmark-ref',
  'text:reference-ref',
  'text:file-name',
  'text:title',
  'text:subject',
  'text:description',
  'text:chapter',
  'text:placeholder',
  'text:hidden-text',
]);

interface Para {
  text: string;
  boxes: Block[];
}

function paragraph(p: XNode): Para {
  let text = '';
  const boxes: Block[] = [];
  const walk = (nodes: XNode[]) => {
    for (const n of nodes) {
      const tag = tagOf(n);
      if (!tag) {
        // ODF collapses white space in text; spaces that matter are written as text:s.
        text += textValue(n).replace(/[ \t\r\n]+/g, ' ');
        continue;
      }
      if (tag === 'text:s') text += ' '.repeat(Math.min(100, Number(attr(n, 'text:c') ?? 1) || 1));
      else if (tag === 'text:tab') text += '\t';
      else if (tag === 'text:line-break') text += '\n';
      else if (INLINE_TRANSPARENT.has(tag)) walk(childrenOf(n));
      else if (tag.startsWith('draw:')) boxes.push(...shapeBlocks(n));
      // text:note (footnotes), office:annotation (comments), text:ruby-text, text:soft-page-break: not printed here.
    }
  };
  walk(childrenOf(p));
  return { text: text.split('\n').map((l) => l.replace(/^ +| +$/g, '')).join('\n'), boxes };
}

/** Text of a frame, text box, group or shape anchored in the text. */
function shapeBlocks(n: XNode): Block[] {
  const tag = tagOf(n);
  if (tag === 'draw:text-box') return blocksOf(childrenOf(n));
  if (tag === 'draw:image' || tag === 'draw:object' || tag === 'draw:object-ole') return [];
  return childrenOf(n).flatMap((c) => (tagOf(c) === 'text:p' ? blocksOf([c]) : tagOf(c)?.startsWith('draw:') ? shapeBlocks(c) : []));
}

function repeat(n: XNode, name: string): number {
  const r = Number(attr(n, name) ?? 1);
  return Number.isFinite(r) && r >= 1 ? r : 1;
}

/** Rows of a table:table (header rows, row groups), cells placed by column (spans, repeats, covered cells). */
function tableRows(tbl: XNode, sheet: boolean): TableRow[] {
  const rows: TableRow[] = [];
  const visit = (nodes: XNode[]) => {
    for (const n of nodes) {
      const tag = tagOf(n);
      if (tag === 'table:table-header-rows' || tag === 'table:table-rows' || tag === 'table:table-row-group') visit(childrenOf(n));
      else if (tag === 'table:table-row') {
        const cells: TableCell[] = [];
        let column = 0;
        for (const c of childrenOf(n)) {
          const ct = tagOf(c);
          if (ct !== 'table:table-cell' && ct !== 'table:covered-table-cell') continue;
          const times = repeat(c, 'table:number-columns-repeated');
          const lines = ct === 'table:table-cell' ? linesOf(blocksOf(childrenOf(c))) : [];
          const span = ct === 'table:table-cell' ? repeat(c, 'table:number-columns-spanned') : 1;
          if (lines.some((l) => l.trim())) {
            for (let i = 0; i < Math.min(times, MAX_REPEAT); i++) cells.push({ column: column + i, span, lines });
          }
          // A spanned cell is followed by covered cells, which take the columns it covers.
          column += times;
        }
        const row = { cells };
        const times = cells.length ? Math.min(repeat(n, 'table:number-rows-repeated'), MAX_REPEAT) : 1;
        for (let i = 0; i < times; i++) rows.push(row);
      }
    }
  };
  visit(childrenOf(tbl));
  // A sheet's empty rows are left out; a text table keeps them (they space the page).
  return sheet ? rows.filter((r) => r.cells.length) : rows;
}

function linesOf(blocks: Block[]): string[] {
  return blocks.flatMap((b) => (b.kind === 'text' ? b.lines : b.rows.map((r) => r.cells.flatMap((c) => c.lines).join('\t'))));
}

/** Text-level content (office:text, a cell, a text box, a header) as blocks in reading order. */
function blocksOf(nodes: XNode[]): Block[] {
  const out: Block[] = [];
  for (const n of nodes) {
    const tag = tagOf(n);
    if (tag === 'text:p' || tag === 'text:h') {
      const p = paragraph(n);
      out.push({ kind: 'text', lines: p.text.split('\n') }, ...p.boxes);
    } else if (tag === 'table:table') out.push({ kind: 'table', rows: tableRows(n, false) });
    else if (
      tag === 'text:list' ||
      tag === 'text:list-item' ||
      tag === 'text:list-header' ||
      tag === 'text:section' ||
      tag === 'text:index-body' ||
      tag === 'text:table-of-content' ||
      tag === 'text:alphabetical-index' ||
      tag === 'text:illustration-index' ||
      tag === 'text:table-index' ||
      tag === 'text:user-index' ||
      tag === 'text:bibliography' ||
      tag === 'text:object-index'
    ) {
      out.push(...blocksOf(childrenOf(n)));
    } else if (tag?.startsWith('draw:')) out.push(...shapeBlocks(n));
  }
  return out;
}

/** True when the manifest says the parts are encrypted (a password-protected document). */
export function odfEncrypted(zip: ZipParts): boolean {
  const manifest = zip.text('META-INF/manifest.xml');
  return !!manifest && /encryption-data/.test(manifest);
}

function content(zip: ZipParts): XNode[] {
  const xml = zip.text('content.xml');
  if (xml === undefined) throw new Error('content.xml is missing');
  return parseXml(xml, 'content.xml');
}

/** Header and footer of the master pages (first variant of each, each text once). */
function masterBlocks(zip: ZipParts, kind: 'style:header' | 'style:footer'): Block[] {
  const xml = zip.text('styles.xml');
  if (!xml) return [];
  const seen = new Set<string>();
  const out: Block[] = [];
  for (const mp of findAll(parseXml(xml, 'styles.xml'), 'style:master-page')) {
    const part = childrenOf(mp).find((c) => tagOf(c) === kind);
    if (!part) continue;
    const blocks = blocksOf(childrenOf(part));
    const key = JSON.stringify(blocks);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(...blocks);
  }
  return out;
}

export function readOdt(zip: ZipParts): FlowPage[] {
  const text = findFirst(content(zip), 'office:text');
  if (!text) throw new Error('content.xml has no office:text');
  return [[...masterBlocks(zip, 'style:header'), ...blocksOf(childrenOf(text)), ...masterBlocks(zip, 'style:footer')]];
}

/** Names of the table styles that hide a sheet (`table:display="false"`). */
function hiddenTableStyles(nodes: XNode[]): Set<string> {
  const out = new Set<string>();
  for (const st of findAll(nodes, 'style:style')) {
    if (attr(st, 'style:family') !== 'table') continue;
    const props = childrenOf(st).find((c) => tagOf(c) === 'style:table-properties');
    const name = attr(st, 'style:name');
    if (name && props && attr(props, 'table:display') === 'false') out.add(name);
  }
  return out;
}

export function readOds(zip: ZipParts): FlowPage[] {
  const nodes = content(zip);
  const sheet = findFirst(nodes, 'office:spreadsheet');
  if (!sheet) throw new Error('content.xml has no office:spreadsheet');
  const hidden = hiddenTableStyles(nodes);
  return childrenOf(sheet)
    .filter((t) => tagOf(t) === 'table:table' && !hidden.has(attr(t, 'table:style-name') ?? ''))
    .map((t) => [{ kind: 'table', sheet: true, rows: tableRows(t, true) } satisfies Block]);
}
