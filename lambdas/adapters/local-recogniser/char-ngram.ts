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

export class CharNgramModel {
  readonly order: number;
  /** Per order o (index o - 1): count of each context of o - 1 characters followed by a character (key: context + character). */
  private readonly grams: Map<string, number>[];
  /** Per order: how often each context occurs, and how many different characters follow it. */
  private readonly contexts: Map<string, { total: number; kinds: number }>[];
  private readonly vocabulary: number;
  private readonly cache = new Map<string, number>();

  constructor(lines: Iterable<string>, order = 6) {
    this.order = order;
    this.grams = Array.from({ length: order }, () => new Map<string, number>());
    this.contexts = Array.from({ length: order }, () => new Map<string, { total: number; kinds: number }>());
    const seen = new Set<string>();
    const pad = START.repeat(order - 1);
    // Each character with its 0 to n - 1 characters before it, counted per order.
    for (const line of lines) {
      const text = pad + CharNgramModel.normalise(line) + END;
      for (let i = order - 1; i < text.length; i++) {
        seen.add(text[i]!);
        for (let o = 1; o <= order; o++) {
          const key = text.slice(i - o + 1, i + 1);
          const grams = this.grams[o - 1]!;
          grams.set(key, (grams.get(key) ?? 0) + 1);
        }
      }
    }
    // A context's total and kinds follow from the counts of the characters after it.
    for (let o = 1; o <= order; o++) {
      const contexts = this.contexts[o - 1]!;
      for (const [key, count] of this.grams[o - 1]!) {
        const context = key.slice(0, -1);
        const c = contexts.get(context);
        if (c) {
          c.total += count;
          c.kinds += 1;
        } else contexts.set(context, { total: count, kinds: 1 });
      }
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
    let p = 1 / this.vocabulary;
    for (let o = 1; o <= this.order; o++) {
      const ctx = o === 1 ? '' : context.slice(-(o - 1));
      const counts = this.contexts[o - 1]!.get(ctx);
      if (!counts) continue;
      const lambda = counts.total / (counts.total + counts.kinds);
      p = (lambda * (this.grams[o - 1]!.get(ctx + c) ?? 0)) / counts.total + (1 - lambda) * p;
    }
    const lp = Math.log(p);
    // The contexts met are bounded by the text read; the cache is emptied now and then all the same.
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(key, lp);
    return lp;
  }
}
