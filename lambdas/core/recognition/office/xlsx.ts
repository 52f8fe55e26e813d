/**
 * Excel workbooks (xlsx, SpreadsheetML): each visible sheet is a page, each non-empty row a line, each cell
 * a word group at its column. Numbers are shown as the sheet shows them: the cell's number format
 * (built-in or the workbook's own) is applied with numfmt, so an amount formatted `#,##0.00` reads
 * "1,234.50" and a date serial reads as a date. Excel's locale-dependent short date (built-in format 14)
 * is shown as YYYY-MM-DD, which no reader can take for another day.
 */
import { format as formatNumber, isDateFormat } from 'numfmt';
import { MAX_LINES_PER_PAGE, type Block, type FlowPage, type TableCell, type TableRow } from './layout';
import { allText, attr, childrenOf, childrenNamed, findFirst, parseXml, tagOf, type XNode } from './xml';
import type { ZipParts } from './zip';

export const xlsxParts = (name: string) =>
  name === 'xl/workbook.xml' || name === 'xl/_rels/workbook.xml.rels' || name === 'xl/sharedStrings.xml' || name === 'xl/styles.xml' || /^xl\/worksheets\/[^/]+\.xml$/.test(name);

/** The built-in number formats of ECMA-376 Part 1, 18.8.30 (ids without a fixed code use General). */
const BUILTIN_FORMATS: Record<number, string> = {
  0: 'General',
  1: '0',
  2: '0.00',
  3: '#,##0',
  4: '#,##0.00',
  9: '0%',
  10: '0.00%',
  11: '0.00E+00',
  12: '# ?/?',
  13: '# ??/??',
  14: 'yyyy-mm-dd',
  15: 'd-mmm-yy',
  16: 'd-mmm',
  17: 'mmm-yy',
  18: 'h:mm AM/PM',
  19: 'h:mm:ss AM/PM',
  20: 'h:mm',
  21: 'h:mm:ss',
  22: 'yyyy-mm-dd h:mm',
  37: '#,##0 ;(#,##0)',
  38: '#,##0 ;[Red](#,##0)',
  39: '#,##0.00;(#,##0.00)',
  40: '#,##0.00;[Red](#,##0.00)',
  45: 'mm:ss',
  46: '[h]:mm:ss',
  47: 'mmss.0',
  48: '##0.0E+0',
  49: '@',
};
/** Days between the 1900 and the 1904 date systems. */
const DAYS_1904 = 1462;
/** Rows read per sheet at most (as many as a page holds). */
const MAX_ROWS = MAX_LINES_PER_PAGE;

/** Column index (0-based) of a cell reference such as "AB12". */
export function columnOf(ref: string): number | undefined {
  const m = /^\$?([A-Z]{1,3})\$?\d+$/i.exec(ref);
  if (!m) return undefined;
  let n = 0;
  for (const ch of m[1]!.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

/** Text of a shared or inline string: its runs, without phonetic (`rPh`) runs. */
function stringItem(si: XNode): string {
  return childrenOf(si)
    .map((c) => {
      const tag = tagOf(c);
      if (tag === 't') return allText(c);
      if (tag === 'r') return childrenNamed(c, 't').map(allText).join('');
      return '';
    })
    .join('');
}

function sharedStrings(zip: ZipParts): string[] {
  const xml = zip.text('xl/sharedStrings.xml');
  if (!xml) return [];
  const sst = findFirst(parseXml(xml, 'xl/sharedStrings.xml'), 'sst');
  return sst ? childrenNamed(sst, 'si').map(stringItem) : [];
}

/** Number format code of each cell style (cellXfs index). */
function styleFormats(zip: ZipParts): string[] {
  const xml = zip.text('xl/styles.xml');
  if (!xml) return [];
  const nodes = parseXml(xml, 'xl/styles.xml');
  const custom = new Map<number, string>();
  const numFmts = findFirst(nodes, 'numFmts');
  for (const f of numFmts ? childrenNamed(numFmts, 'numFmt') : []) custom.set(Number(attr(f, 'numFmtId')), attr(f, 'formatCode') ?? 'General');
  const xfs = findFirst(nodes, 'cellXfs');
  return (xfs ? childrenNamed(xfs, 'xf') : []).map((xf) => {
    const id = Number(attr(xf, 'numFmtId') ?? 0);
    return custom.get(id) ?? BUILTIN_FORMATS[id] ?? 'General';
  });
}

/** A number as the cell shows it. */
export function formatCell(value: number, code: string, date1904 = false): string {
  try {
    const isDate = isDateFormat(code);
    return formatNumber(code, isDate && date1904 ? value + DAYS_1904 : value, { nbsp: false, throws: true });
  } catch {
    return String(value);
  }
}

interface SheetRef {
  name: string;
  part: string;
}

function sheetsOf(zip: ZipParts): { sheets: SheetRef[]; date1904: boolean } {
  const xml = zip.text('xl/workbook.xml');
  if (xml === undefined) throw new Error('xl/workbook.xml is missing');
  const nodes = parseXml(xml, 'xl/workbook.xml');
  const pr = findFirst(nodes, 'workbookPr');
  const date1904 = ['1', 'true'].includes(pr ? (attr(pr, 'date1904') ?? '') : '');
  const targets = new Map<string, string>();
  const rels = zip.text('xl/_rels/workbook.xml.rels');
  if (rels) {
    for (const r of parseXml(rels, 'xl/_rels/workbook.xml.rels').flatMap((n) => childrenOf(n))) {
      const id = attr(r, 'Id');
      const target = attr(r, 'Target');
      if (id && target) targets.set(id, target.startsWith('/') ? target.slice(1) : `xl/${target}`);
    }
  }
  const list = findFirst(nodes, 'sheets');
  const sheets: SheetRef[] = [];
  (list ? childrenNamed(list, 'sheet') : []).forEach((s, i) => {
    if (['hidden', 'veryHidden'].includes(attr(s, 'state') ?? '')) return;
    const part = targets.get(attr(s, 'r:id') ?? '') ?? `xl/worksheets/sheet${i + 1}.xml`;
    sheets.push({ name: attr(s, 'name') ?? `Sheet${i + 1}`, part });
  });
  return { sheets, date1904 };
}

function cellText(c: XNode, strings: string[], formats: string[], date1904: boolean): string {
  const type = attr(c, 't') ?? 'n';
  const v = childrenOf(c).find((x) => tagOf(x) === 'v');
  const raw = v ? allText(v) : '';
  switch (type) {
    case 's':
      return strings[Number(raw)] ?? '';
    case 'inlineStr': {
      const is = childrenOf(c).find((x) => tagOf(x) === 'is');
      return is ? stringItem(is) : '';
    }
    case 'str':
    case 'e':
    case 'd':
      return raw;
    case 'b':
      return raw === '1' ? 'TRUE' : raw === '0' ? 'FALSE' : raw;
    default: {
      if (raw.trim() === '') return '';
      const n = Number(raw);
      if (!Number.isFinite(n)) return raw;
      return formatCell(n, formats[Number(attr(c, 's') ?? 0)] ?? 'General', date1904);
    }
  }
}

function readSheet(xml: string, part: string, strings: string[], formats: string[], date1904: boolean): Block {
  const data = findFirst(parseXml(xml, part), 'sheetData');
  const rows: TableRow[] = [];
  for (const row of data ? childrenNamed(data, 'row') : []) {
    if (rows.length >= MAX_ROWS) break;
    const cells: TableCell[] = [];
    let next = 0;
    for (const c of childrenNamed(row, 'c')) {
      const column = columnOf(attr(c, 'r') ?? '') ?? next;
      next = column + 1;
      const text = cellText(c, strings, formats, date1904).trim();
      if (text) cells.push({ column, lines: [text] });
    }
    if (cells.length) rows.push({ cells });
  }
  return { kind: 'table', sheet: true, rows };
}

export function readXlsx(zip: ZipParts): FlowPage[] {
  const { sheets, date1904 } = sheetsOf(zip);
  const strings = sharedStrings(zip);
  const formats = styleFormats(zip);
  return sheets.flatMap((s) => {
    const xml = zip.text(s.part);
    return xml === undefined ? [] : [[readSheet(xml, s.part, strings, formats, date1904)]];
  });
}
