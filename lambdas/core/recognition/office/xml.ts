/**
 * The XML of office files (WordprocessingML, SpreadsheetML, OpenDocument) as ordered nodes: fast-xml-parser
 * with `preserveOrder`, so paragraphs, runs and table cells keep their document order. Text is kept as
 * written (no trimming, entities decoded); attributes keep their prefixes (`w:val`, `table:name`).
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** An element (`{ 'w:p': children, ':@': attributes }`) or a text node (`{ '#text': '…' }`). */
export type XNode = Record<string, unknown>;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  htmlEntities: true,
});

/** Thrown for XML that cannot be read; the office reader turns it into a readable refusal. */
export class BadXml extends Error {
  constructor(part: string, cause?: unknown) {
    super(`${part} is not well-formed XML${cause instanceof Error ? `: ${cause.message}` : ''}`);
    this.name = 'BadXml';
  }
}

/** The top-level nodes of an XML part. Office parts never carry a DOCTYPE; one is refused (entity expansion). */
export function parseXml(xml: string, part: string): XNode[] {
  if (/<!DOCTYPE/i.test(xml)) throw new BadXml(part);
  // The parser is lenient (unclosed elements at the end pass): a damaged part is found by the validator.
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new BadXml(part, new Error(`${valid.err.msg} (line ${valid.err.line})`));
  try {
    return parser.parse(xml) as XNode[];
  } catch (error) {
    throw new BadXml(part, error);
  }
}

/** The element's name (`w:p`), undefined for a text node. */
export function tagOf(node: XNode): string | undefined {
  for (const k of Object.keys(node)) if (k !== ':@' && k !== '#text') return k;
  return undefined;
}

export function isText(node: XNode): boolean {
  return typeof node['#text'] === 'string';
}

export function textValue(node: XNode): string {
  return typeof node['#text'] === 'string' ? node['#text'] : '';
}

export function childrenOf(node: XNode): XNode[] {
  const tag = tagOf(node);
  const kids = tag ? node[tag] : undefined;
  return Array.isArray(kids) ? (kids as XNode[]) : [];
}

export function attr(node: XNode, name: string): string | undefined {
  const attrs = node[':@'] as Record<string, unknown> | undefined;
  const v = attrs?.[name];
  return typeof v === 'string' ? v : undefined;
}

/** Child elements with the given name. */
export function childrenNamed(node: XNode, name: string): XNode[] {
  return childrenOf(node).filter((c) => tagOf(c) === name);
}

export function firstChild(node: XNode, name: string): XNode | undefined {
  return childrenOf(node).find((c) => tagOf(c) === name);
}

/** The first element with this name, depth first, in document order. */
export function findFirst(nodes: XNode[], name: string): XNode | undefined {
  for (const n of nodes) {
    if (tagOf(n) === name) return n;
    const inner = findFirst(childrenOf(n), name);
    if (inner) return inner;
  }
  return undefined;
}

/** Every element with this name, depth first, in document order (not looking inside a match). */
export function findAll(nodes: XNode[], name: string, out: XNode[] = []): XNode[] {
  for (const n of nodes) {
    if (tagOf(n) === name) out.push(n);
    else findAll(childrenOf(n), name, out);
  }
  return out;
}

/** All text below a node, in order. */
export function allText(node: XNode): string {
  if (isText(node)) return textValue(node);
  return childrenOf(node).map(allText).join('');
}
