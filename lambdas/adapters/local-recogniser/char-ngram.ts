/**
 * A character n-gram model of printed receipt text: how likely each character is after the few before it. The
 * recogniser's beam search (`ctc-beam.ts`) weighs the characters it is unsure of with it, the way speech and
 * handwriting recognisers use a language model. Counts of the characters of a corpus of text lines, one line a
 * sentence; Witten–Bell interpolation of the orders 1 to n, so a context never seen falls back to shorter ones and
 * a character never seen keeps a share of its own. Letters are counted in upper case: receipts print the same
 * words in both.
 */

/** Marks a line's start (repeated as its first context) and its end. */
const START = '\u0002';
const END = '\u0003';
const CACHE_LIMIT = 500_000;

/**
 * Counts by whole-number key (up to 2^53), and how many times each key was added to: an open-addressing hash table
 * over typed arrays, two to three times quicker to fill than string-keyed `Map`s for the million-odd n-grams of the
 * corpus, in less memory.
 */
class CountTable {
  private keys: Float64Array;
  private counts: Uint32Array;
  private additions: Uint32Array;
  private size = 0;

  constructor(capacity = 1 << 12) {
    this.keys = new Float64Array(capacity).fill(-1);
    this.counts = new Uint32Array(capacity);
    this.additions = new Uint32Array(capacity);
  }

  /** The slot that holds `key`, or the empty one where it would go. */
  private slot(key: number): number {
    const mask = this.keys.length - 1;
    // MurmurHash3's finaliser over the key's two 32-bit halves.
    let h = (key % 4294967296) ^ Math.imul(Math.floor(key / 4294967296), 0x9e3779b1);
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    h ^= h >>> 16;
    let i = h & mask;
    for (;;) {
      const k = this.keys[i]!;
      if (k === key || k === -1) return i;
      i = (i + 1) & mask;
    }
  }

  /** Adds `by` to `key`'s count. */
  add(key: number, by = 1): void {
    if (this.size * 2 >= this.keys.length) this.grow();
    const i = this.slot(key);
    if (this.keys[i] === -1) {
      this.keys[i] = key;
      this.size++;
    }
    this.counts[i]! += by;
    this.additions[i]! += 1;
  }

  /** The count of `key` (0 if never added). */
  count(key: number): number {
    return this.counts[this.slot(key)]!;
  }

  /** How many times `key` was added to (0 if never). */
  addedTimes(key: number): number {
    return this.additions[this.slot(key)]!;
  }

  *entries(): Generator<[key: number, count: number]> {
    for (let i = 0; i < this.keys.length; i++) if (this.keys[i] !== -1) yield [this.keys[i]!, this.counts[i]!];
  }

  private grow() {
    const { keys, counts, additions } = this;
    this.keys = new Float64Array(keys.length * 2).fill(-1);
    this.counts = new Uint32Array(keys.length * 2);
    this.additions = new Uint32Array(keys.length * 2);
    for (let j = 0; j < keys.length; j++) {
      if (keys[j] === -1) continue;
      const i = this.slot(keys[j]!);
      this.keys[i] = keys[j]!;
      this.counts[i] = counts[j]!;
      this.additions[i] = additions[j]!;
    }
  }
}

export class CharNgramModel {
  readonly order: number;
  /**
   * Characters numbered from 1, the most frequent first (0: one the corpus never shows). A run of characters is one
   * number in base `width`, the last character the lowest digit; so an n-gram's number is its context's times
   * `width` plus its character's.
   */
  private readonly codes = new Map<string, number>();
  private readonly width: number;
  /** Per order o (index o - 1): how often each n-gram of o characters occurs. */
  private readonly grams: CountTable[] = [];
  /**
   * Per order: each context of o - 1 characters, how often it occurs (its count) and how many different characters
   * follow it (the times it was added to: once for each n-gram it begins).
   */
  private readonly contexts: CountTable[] = [];
  private readonly vocabulary: number;
  private readonly cache = new Map<string, number>();

  constructor(lines: Iterable<string>, order = 6) {
    this.order = order;
    const pad = START.repeat(order - 1);
    const texts = Array.from(lines, (line) => pad + CharNgramModel.normalise(line) + END);
    // The characters that follow a context: every one but the start's padding.
    const seen = new Map<string, number>();
    for (const text of texts) for (let i = order - 1; i < text.length; i++) seen.set(text[i]!, (seen.get(text[i]!) ?? 0) + 1);
    // An n-gram's number must stay a whole number that a double holds exactly: past that many characters (never met
    // in receipt text), the rarest are counted as one, which `logProb` treats as never seen.
    const known = Math.floor(Number.MAX_SAFE_INTEGER ** (1 / order)) - 2;
    const byCount = [...seen.keys()].sort((a, b) => seen.get(b)! - seen.get(a)!);
    for (const ch of [START, ...byCount]) if (this.codes.size < known) this.codes.set(ch, this.codes.size + 1);
    const other = this.codes.size + 1;
    this.width = other + 1;
    for (let o = 1; o <= order; o++) {
      this.grams.push(new CountTable());
      this.contexts.push(new CountTable());
    }
    // Each character with its 0 to n - 1 characters before it, counted per order.
    for (const text of texts) {
      const code = Array.from({ length: text.length }, (_, i) => this.codes.get(text[i]!) ?? other);
      for (let i = order - 1; i < code.length; i++) {
        let key = 0;
        let digit = 1;
        for (let o = 1; o <= order; o++, digit *= this.width) {
          key += code[i - o + 1]! * digit;
          this.grams[o - 1]!.add(key);
        }
      }
    }
    // A context's total and kinds follow from the counts of the characters after it.
    for (let o = 1; o <= order; o++) {
      const contexts = this.contexts[o - 1]!;
      for (const [key, count] of this.grams[o - 1]!.entries()) contexts.add(Math.floor(key / this.width), count);
    }
    // One more for the characters the corpus never shows.
    this.vocabulary = seen.size + 1;
  }

  /** A line as the model counts it: upper case, runs of white space as one space, trimmed. */
  static normalise(line: string): string {
    return line.toUpperCase().replace(/\s+/g, ' ').trim();
  }

  /** The context of the next character after `text` (a line read so far): its last order - 1 characters, in upper case. */
  context(text: string): string {
    return (START.repeat(this.order - 1) + text.toUpperCase()).slice(-(this.order - 1));
  }

  /** The context after `context` and one more character. */
  nextContext(context: string, ch: string): string {
    return (context + ch.toUpperCase()).slice(-(this.order - 1));
  }

  /** Natural log of the probability of `ch` (one character, any case; `end` for the line's end) after `context`. */
  logProb(context: string, ch: string | 'end'): number {
    const c = ch === 'end' ? END : ch.toUpperCase();
    const key = context + c;
    const known = this.cache.get(key);
    if (known !== undefined) return known;
    const code = this.codes.get(c) ?? 0;
    let p = 1 / this.vocabulary;
    // Orders 1 up, each context one character longer, until one the corpus never shows.
    let ctx = 0;
    let digit = 1;
    for (let o = 1; o <= this.order; o++) {
      if (o > 1) {
        const before = this.codes.get(context[context.length - o + 1]!);
        if (before === undefined) break;
        ctx += before * digit;
        digit *= this.width;
      }
      const contexts = this.contexts[o - 1]!;
      const total = contexts.count(ctx);
      if (total === 0) break;
      const lambda = total / (total + contexts.addedTimes(ctx));
      p = (lambda * (code ? this.grams[o - 1]!.count(ctx * this.width + code) : 0)) / total + (1 - lambda) * p;
    }
    const lp = Math.log(p);
    // The contexts met are bounded by the text read; the cache is emptied now and then all the same.
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(key, lp);
    return lp;
  }
}
