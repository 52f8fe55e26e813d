/**
 * Rich Text Format: the text with control words removed. Paragraphs (`\par`), line breaks and tabs are
 * kept; table rows (`\cell` … `\row`) become rows of cells; headers go above the body and footers below.
 * Characters are decoded from `\'hh` bytes in the code page of the current font (`\fcharset`) or of the
 * document (`\ansicpg`), and from `\uN` (skipping the `\ucN` fallback characters). Destinations that are
 * not printed text (font and colour tables, style sheets, pictures, field instructions, document info,
 * footnotes, comments, list numbering) are skipped, as is every unknown `\*` destination.
 *
 * No npm package reads general RTF to text on the server (rtf-stream-parser de-encapsulates only the
 * HTML/text that Outlook wraps in RTF; the others are browser renderers or unmaintained), so this is a small
 * tokenizer of its own, after the RTF 1.9.1 specification.
 */
import type { Block, FlowPage, TableCell } from './layout';

/** Groups whose content is not text of the page. */
const SKIP = new Set([
  'fonttbl',
  'colortbl',
  'stylesheet',
  'info',
  'pict',
  'themedata',
  'colorschememapping',
  'latentstyles',
  'datastore',
  'xmlnstbl',
  'listtable',
  'listoverridetable',
  'rsidtbl',
  'generator',
  'mmathPr',
  'fldinst',
  'pgdsctbl',
  'revtbl',
  'filetbl',
  'objdata',
  'footnote',
  'annotation',
  'atnid',
  'atnauthor',
  'xe',
  'tc',
  'bkmkstart',
  'bkmkend',
  'nonshppict',
  'shpinst',
  'pntext',
  'pntxta',
  'pntxtb',
  'listtext',
  'userprops',
  'template',
  'wgrffmtfilter',
  'private',
]);
const HEADERS = new Set(['header', 'headerl', 'headerr', 'headerf']);
const FOOTERS = new Set(['footer', 'footerl', 'footerr', 'footerf']);

const SYMBOLS: Record<string, string> = {
  emdash: '\u2014',
  endash: '\u2013',
  bullet: '\u2022',
  lquote: '\u2018',
  rquote: '\u2019',
  ldblquote: '\u201c',
  rdblquote: '\u201d',
  emspace: ' ',
  enspace: ' ',
  qmspace: ' ',
};

/** Windows code page of an RTF `\fcharset`. */
const CHARSET_CODEPAGE: Record<number, number> = {
  0: 1252,
  161: 1253,
  162: 1254,
  163: 1258,
  177: 1255,
  178: 1256,
  186: 1257,
  204: 1251,
  222: 874,
  238: 1250,
  128: 932,
  129: 949,
  134: 936,
  136: 950,
};
const CODEPAGE_LABEL: Record<number, string> = { 874: 'windows-874', 932: 'shift_jis', 936: 'gbk', 949: 'euc-kr', 950: 'big5', 10000: 'macintosh' };

const decoders = new Map<number, TextDecoder>();
function decoderFor(cp: number): TextDecoder {
  let d = decoders.get(cp);
  if (!d) {
    const label = CODEPAGE_LABEL[cp] ?? (cp >= 1250 && cp <= 1258 ? `windows-${cp}` : 'windows-1252');
    try {
      d = new TextDecoder(label);
    } catch {
      d = new TextDecoder('windows-1252');
    }
    decoders.set(cp, d);
  }
  return d;
}

/** Where text goes: the body, the headers or the footers, each its own paragraphs and table rows. */
class Output {
  readonly blocks: Block[] = [];
  cur = '';
  intbl = false;
  private cellLines: string[] = [];
  private cells: string[][] = [];

  private addLine(line: string) {
    const last = this.blocks[this.blocks.length - 1];
    if (last?.kind === 'text') last.lines.push(line);
    else this.blocks.push({ kind: 'text', lines: [line] });
  }

  par() {
    if (this.intbl) this.cellLines.push(...this.cur.split('\n'));
    else for (const l of this.cur.split('\n')) this.addLine(l);
    this.cur = '';
  }

  cell() {
    this.cellLines.push(...this.cur.split('\n'));
    this.cur = '';
    this.cells.push(this.cellLines);
    this.cellLines = [];
  }

  row() {
    if (this.cur || this.cellLines.length) this.cell();
    const cells: TableCell[] = this.cells.map((lines, column) => ({ column, lines }));
    this.cells = [];
    if (!cells.length) return;
    const last = this.blocks[this.blocks.length - 1];
    if (last?.kind === 'table') last.rows.push({ cells });
    else this.blocks.push({ kind: 'table', rows: [{ cells }] });
  }

  end() {
    if (this.cells.length) this.row();
    if (this.cur) this.par();
  }
}

interface State {
  skip: boolean;
  /** Characters to skip after \uN. */
  uc: number;
  codepage: number;
  out: Output;
  fonttbl: boolean;
}

const LATIN1 = new TextDecoder('latin1');
const isLetter = (c: number | undefined) => c !== undefined && ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a));
const isDigit = (c: number | undefined) => c !== undefined && c >= 0x30 && c <= 0x39;

export function isRtf(bytes: Uint8Array): boolean {
  return LATIN1.decode(bytes.subarray(0, 5)) === '{\\rtf';
}

export function readRtf(bytes: Uint8Array): FlowPage[] {
  if (!isRtf(bytes)) throw new Error('not an RTF document');
  const body = new Output();
  const header = new Output();
  const footer = new Output();
  let docCodepage = 1252;
  const fontCharset = new Map<number, number>();
  let fontNumber: number | undefined;
  let state: State = { skip: false, uc: 1, codepage: docCodepage, out: body, fonttbl: false };
  const stack: State[] = [];
  let groupStart = false;
  let starred = false;
  let skipChars = 0;
  let pending: number[] = [];

  const flush = () => {
    if (!pending.length) return;
    if (!state.skip) state.out.cur += decoderFor(state.codepage).decode(new Uint8Array(pending));
    pending = [];
  };
  const emit = (s: string) => {
    flush();
    if (!state.skip) state.out.cur += s;
  };

  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i]!;
    if (b === 0x7b) {
      // {
      flush();
      stack.push(state);
      state = { ...state };
      groupStart = true;
      starred = false;
      skipChars = 0;
      i++;
      continue;
    }
    if (b === 0x7d) {
      // }
      flush();
      const closing = state;
      state = stack.pop() ?? state;
      if (closing.out !== state.out) closing.out.end();
      groupStart = false;
      starred = false;
      skipChars = 0;
      i++;
      continue;
    }
    if (b === 0x0d || b === 0x0a) {
      i++;
      continue;
    }
    if (b !== 0x5c) {
      // Text.
      if (skipChars > 0) skipChars--;
      else if (!state.skip) pending.push(b);
      groupStart = false;
      i++;
      continue;
    }
    // A backslash: control word or symbol.
    const next = bytes[i + 1];
    if (next === undefined) break;
    if (!isLetter(next)) {
      i += 2;
      const sym = String.fromCharCode(next);
      if (sym === "'") {
        const hex = String.fromCharCode(bytes[i] ?? 0, bytes[i + 1] ?? 0);
        i += 2;
        if (skipChars > 0) skipChars--;
        else if (!state.skip && /^[0-9a-f]{2}$/i.test(hex)) pending.push(parseInt(hex, 16));
      } else if (sym === '*') {
        starred = true;
        continue;
      } else if (skipChars > 0) skipChars--;
      else if (sym === '\\' || sym === '{' || sym === '}') {
        if (!state.skip) pending.push(next);
      } else if (sym === '~') emit(' ');
      else if (sym === '_') emit('-');
      else if (sym === '\n' || sym === '\r') {
        flush();
        if (!state.skip) state.out.par();
      }
      groupStart = false;
      continue;
    }
    let j = i + 1;
    while (j < n && isLetter(bytes[j])) j++;
    const word = LATIN1.decode(bytes.subarray(i + 1, j));
    let param: number | undefined;
    let k = j;
    if (bytes[k] === 0x2d || isDigit(bytes[k])) {
      k++;
      while (k < n && isDigit(bytes[k])) k++;
      param = Number(LATIN1.decode(bytes.subarray(j, k))) || 0;
    }
    if (bytes[k] === 0x20) k++;
    i = k;
    const first = groupStart;
    groupStart = false;

    if (word === 'bin') {
      i += Math.max(0, param ?? 0);
      continue;
    }
    if (first) {
      if (word === 'fonttbl') {
        flush();
        state.fonttbl = true;
        state.skip = true;
        continue;
      }
      if (SKIP.has(word) || (starred && !HEADERS.has(word) && !FOOTERS.has(word) && word !== 'fldrslt')) {
        flush();
        state.skip = true;
        continue;
      }
      if (HEADERS.has(word) || FOOTERS.has(word)) {
        flush();
        state.out = HEADERS.has(word) ? header : footer;
        continue;
      }
    }
    if (state.fonttbl) {
      if (word === 'f' && param !== undefined) fontNumber = param;
      else if (word === 'fcharset' && param !== undefined && fontNumber !== undefined) fontCharset.set(fontNumber, param);
      continue;
    }
    if (word === 'u' && param !== undefined) {
      if (skipChars > 0) skipChars = 0;
      emit(String.fromCharCode(param < 0 ? param + 65536 : param));
      skipChars = state.uc;
      continue;
    }
    if (skipChars > 0) {
      skipChars--;
      continue;
    }
    switch (word) {
      case 'ansicpg':
        flush();
        if (param) docCodepage = param;
        state.codepage = docCodepage;
        break;
      case 'uc':
        state.uc = Math.max(0, param ?? 1);
        break;
      case 'f': {
        flush();
        const cs = fontCharset.get(param ?? 0);
        state.codepage = cs !== undefined && cs !== 0 && cs !== 1 ? (CHARSET_CODEPAGE[cs] ?? docCodepage) : docCodepage;
        break;
      }
      case 'par':
      case 'sect':
      case 'page':
        flush();
        if (!state.skip) state.out.par();
        break;
      case 'line':
        emit('\n');
        break;
      case 'tab':
        emit('\t');
        break;
      case 'cell':
        flush();
        if (!state.skip) state.out.cell();
        break;
      case 'row':
        flush();
        if (!state.skip) state.out.row();
        break;
      case 'nestcell':
        emit('\t');
        break;
      case 'nestrow':
        emit('\n');
        break;
      case 'intbl':
        state.out.intbl = true;
        break;
      case 'pard':
        state.out.intbl = false;
        break;
      default:
        if (SYMBOLS[word] !== undefined) emit(SYMBOLS[word]);
    }
  }
  flush();
  body.end();
  header.end();
  footer.end();
  return [[...header.blocks, ...body.blocks, ...footer.blocks]];
}
