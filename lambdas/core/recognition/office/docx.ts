/**
 * Word documents (docx, WordprocessingML): the body's paragraphs and tables in reading order, with the
 * headers above and the footers below. Deleted text (tracked changes), field instructions and comments are
 * left out; text boxes follow the paragraph they are anchored in.
 */
import type { Block, FlowPage, TableCell, TableRow } from './layout';
import { attr, childrenOf, findFirst, parseXml, tagOf, textValue, type XNode } from './xml';
import type { ZipParts } from './zip';

const MAIN = 'word/document.xml';

/** Elements whose content is read as if it were in their parent. */
const TRANSPARENT = new Set(['w:hyperlink', 'w:ins', 'w:moveTo', 'w:smartTag', 'w:customXml', 'w:fldSimple', 'w:dir', 'w:bdo', 'w:sdtContent']);
/** Elements whose text is not printed. */
const HIDDEN = new Set(['w:del', 'w:moveFrom', 'w:pPr', 'w:rPr', 'w:sdtPr', 'w:sdtEndPr', 'w:tblPr', 'w:tblGrid', 'w:trPr', 'w:tcPr', 'w:sectPr', 'w:commentReference', 'w:footnoteReference', 'w:endnoteReference']);

export const docxParts = (name: string) => name === MAIN || name === 'word/_rels/document.xml.rels' || /^word\/(header|footer)\d*\.xml$/.test(name);

interface Para {
  /** The paragraph's text; `\n` for line breaks, `\t` for tabs. */
  text: string;
  /** Text boxes anchored in the paragraph. */
  boxes: Block[];
}

function paragraph(p: XNode): Para {
  let text = '';
  const boxes: Block[] = [];
  const walk = (nodes: XNode[]) => {
    for (const n of nodes) {
      const tag = tagOf(n);
      if (!tag || HIDDEN.has(tag)) continue;
      switch (tag) {
        case 'w:t':
          text += childrenOf(n).map(textValue).join('');
          break;
        case 'w:tab':
        case 'w:ptab':
          text += '\t';
          break;
        case 'w:br':
        case 'w:cr':
          text += '\n';
          break;
        case 'w:noBreakHyphen':
          text += '-';
          break;
        case 'w:r':
        case 'w:sdt':
          walk(childrenOf(n));
          break;
        case 'w:txbxContent':
          boxes.push(...blocksOf(childrenOf(n)));
          break;
        case 'mc:AlternateContent': {
          // The same content twice (a DrawingML choice and a VML fallback): the first is read.
          const first = childrenOf(n).find((c) => tagOf(c));
          if (first) walk(childrenOf(first));
          break;
        }
        default:
          if (TRANSPARENT.has(tag) || tag === 'w:drawing' || tag === 'w:pict' || tag.startsWith('wp:') || tag.startsWith('a:') || tag.startsWith('wps:') || tag.startsWith('wpg:') || tag.startsWith('wpc:') || tag.startsWith('v:') || tag === 'mc:Choice' || tag === 'mc:Fallback') {
            walk(childrenOf(n));
          }
      }
    }
  };
  walk(childrenOf(p));
  return { text, boxes };
}

function gridSpan(tc: XNode): number {
  const pr = childrenOf(tc).find((c) => tagOf(c) === 'w:tcPr');
  const span = pr && childrenOf(pr).find((c) => tagOf(c) === 'w:gridSpan');
  const n = Number(span ? attr(span, 'w:val') : 1);
  return Number.isFinite(n) && n >= 1 ? Math.min(n, 64) : 1;
}

/** Rows of a table, cells placed on the table's grid (gridBefore, gridSpan); nested tables become lines of their cell. */
function table(tbl: XNode): Block {
  const rows: TableRow[] = [];
  const rowsOf = (nodes: XNode[]): XNode[] =>
    nodes.flatMap((n) => (tagOf(n) === 'w:tr' ? [n] : tagOf(n) === 'w:sdt' || tagOf(n) === 'w:sdtContent' || tagOf(n) === 'w:customXml' ? rowsOf(childrenOf(n)) : []));
  const cellsOf = (nodes: XNode[]): XNode[] =>
    nodes.flatMap((n) => (tagOf(n) === 'w:tc' ? [n] : tagOf(n) === 'w:sdt' || tagOf(n) === 'w:sdtContent' || tagOf(n) === 'w:customXml' ? cellsOf(childrenOf(n)) : []));
  for (const tr of rowsOf(childrenOf(tbl))) {
    const trPr = childrenOf(tr).find((c) => tagOf(c) === 'w:trPr');
    const before = trPr && childrenOf(trPr).find((c) => tagOf(c) === 'w:gridBefore');
    let column = Number(before ? attr(before, 'w:val') : 0) || 0;
    const cells: TableCell[] = [];
    for (const tc of cellsOf(childrenOf(tr))) {
      const span = gridSpan(tc);
      cells.push({ column, span, lines: linesOf(blocksOf(childrenOf(tc))) });
      column += span;
    }
    rows.push({ cells });
  }
  return { kind: 'table', rows };
}

/** A cell's blocks as lines: paragraphs line by line, a nested table row by row (cells tab-separated). */
function linesOf(blocks: Block[]): string[] {
  return blocks.flatMap((b) => (b.kind === 'text' ? b.lines : b.rows.map((r) => r.cells.flatMap((c) => c.lines).join('\t'))));
}

/** Body-level content (w:body, a cell, a header, a text box) as blocks in reading order. */
function blocksOf(nodes: XNode[]): Block[] {
  const out: Block[] = [];
  for (const n of nodes) {
    const tag = tagOf(n);
    if (tag === 'w:p') {
      const p = paragraph(n);
      out.push({ kind: 'text', lines: p.text.split('\n') }, ...p.boxes);
    } else if (tag === 'w:tbl') out.push(table(n));
    else if (tag === 'w:sdt' || tag === 'w:sdtContent' || tag === 'w:customXml') out.push(...blocksOf(childrenOf(n)));
  }
  return out;
}

/** Header or footer parts named by the sections, in order, each once ('even' pages' variants left out). */
function sectionParts(body: XNode, rels: string | undefined, kind: 'header' | 'footer'): string[] {
  if (!rels) return [];
  const targets = new Map<string, string>();
  for (const r of parseXml(rels, 'word/_rels/document.xml.rels').flatMap((n) => childrenOf(n))) {
    const id = attr(r, 'Id');
    const target = attr(r, 'Target');
    if (id && target) targets.set(id, target.replace(/^\/?(word\/)?/, 'word/'));
  }
  const out: string[] = [];
  const visit = (nodes: XNode[]) => {
    for (const n of nodes) {
      const tag = tagOf(n);
      if (tag === `w:${kind}Reference`) {
        const target = targets.get(attr(n, 'r:id') ?? '');
        if (target && attr(n, 'w:type') !== 'even' && !out.includes(target)) out.push(target);
      } else if (tag) visit(childrenOf(n));
    }
  };
  visit([body]);
  return out;
}

export function readDocx(zip: ZipParts): FlowPage[] {
  const xml = zip.text(MAIN);
  if (xml === undefined) throw new Error(`${MAIN} is missing`);
  const body = findFirst(parseXml(xml, MAIN), 'w:body');
  if (!body) throw new Error(`${MAIN} has no body`);
  const rels = zip.text('word/_rels/document.xml.rels');
  const partBlocks = (name: string): Block[] => {
    const part = zip.text(name);
    if (part === undefined) return [];
    const root = parseXml(part, name).find((n) => tagOf(n) === 'w:hdr' || tagOf(n) === 'w:ftr');
    return root ? blocksOf(childrenOf(root)) : [];
  };
  const headers = sectionParts(body, rels, 'header').flatMap(partBlocks);
  const footers = sectionParts(body, rels, 'footer').flatMap(partBlocks);
  return [[...headers, ...blocksOf(childrenOf(body)), ...footers]];
}
