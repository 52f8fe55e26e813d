/**
 * CTC prefix beam search with a character language model, for the lines the recogniser is unsure of.
 *
 * The greedy reading takes the likeliest class at every time step. Where a step is uncertain (its likeliest class
 * under 0.9: thin print, a smudge), the second choice is often the right letter, and which one is right is
 * mostly a matter of what text is likely ("JALAN" rather than "JALAU", "TOTAL" rather than "T0TAL"). The beam
 * search keeps the few likeliest readings of the line, each scored by the recogniser's probability of the reading
 * (summed over its alignments) plus `alpha` times the language model's log probability of its characters plus
 * `beta` per character (the model's probabilities shrink with each character; without it short readings win).
 * A line whose every step is certain keeps its greedy reading, and so does a line where the search agrees with it.
 * A line the search reads otherwise gets its characters' time steps and confidences from the best alignment of
 * the new text (Viterbi), so the word boxes, spaces and confidences are worked out as for any line.
 */
import type { CharNgramModel } from './char-ngram';

export interface BeamOptions {
  /** Weight of the language model's log probability (default 0.3). */
  alpha: number;
  /** Score per character (default 1.5). */
  beta: number;
  /** Readings kept after each step (default 6). */
  width: number;
  /** Classes considered at each step: the likeliest few (default 5), each at least `minProb` (default 0.001). */
  candidates: number;
  minProb: number;
  /** A step is uncertain when its likeliest class is below this (default 0.9). */
  certain: number;
}

export const DEFAULT_BEAM: BeamOptions = { alpha: 0.3, beta: 1.5, width: 6, candidates: 5, minProb: 0.001, certain: 0.9 };

export interface DecodedLine {
  text: string;
  confidences: number[];
  positions: number[];
}

interface Reading {
  labels: number[];
  text: string;
  /** The language model's context after the text. */
  context: string;
  /** Log probabilities of the reading ending in a blank and in its last character. */
  blank: number;
  char: number;
  /** The language model's log probability of the reading's characters. */
  lm: number;
}

function logAdd(a: number, b: number): number {
  if (a === -Infinity) return b;
  if (b === -Infinity) return a;
  const m = Math.max(a, b);
  return m + Math.log(Math.exp(a - m) + Math.exp(b - m));
}

/** Whether every step has a class (the blank too) of at least `certain` (above one half: there is only one such). */
function everyStepCertain(probs: Float32Array, offset: number, steps: number, order: Int32Array, classes: number, certain: number): boolean {
  for (let t = 0; t < steps; t++) {
    const base = offset + t * classes;
    let found = false;
    for (let k = 0; k < order.length && !found; k++) found = probs[base + order[k]!]! >= certain;
    if (!found) return false;
  }
  return true;
}

/**
 * The classes in the order the candidates are looked for: the blank and the ASCII characters first (what receipts
 * print), then the rest of the dictionary, so that the search for a step's candidates can stop early.
 */
const scanOrders = new WeakMap<readonly string[], Int32Array>();

export function scanOrder(chars: readonly string[], classes: number): Int32Array {
  let order = scanOrders.get(chars);
  if (order?.length !== classes) {
    const ascii = (c: number) => c === 0 || (chars[c] ?? '').charCodeAt(0) < 128;
    const all = Array.from({ length: classes }, (_, c) => c);
    order = Int32Array.from([...all.filter(ascii), ...all.filter((c) => !ascii(c))]);
    scanOrders.set(chars, order);
  }
  return order;
}

/** The likeliest classes of one step (at most `n`, each at least `minProb`), likeliest first. */
function stepCandidates(probs: Float32Array, base: number, order: Int32Array, n: number, minProb: number): [number, number][] {
  const top: [number, number][] = [];
  // Once less than minProb is left to the classes not yet seen, none of them can be a candidate.
  let left = 1;
  for (let k = 0; k < order.length && left >= minProb; k++) {
    const c = order[k]!;
    const p = probs[base + c]!;
    left -= p;
    if (p < minProb || (top.length === n && p <= top[n - 1]![1])) continue;
    let at = top.length === n ? n - 1 : top.length;
    if (top.length < n) top.push([c, p]);
    while (at > 0 && top[at - 1]![1] < p) {
      top[at] = top[at - 1]!;
      at--;
    }
    top[at] = [c, p];
  }
  return top;
}

/**
 * The best reading of one line (`steps` × `classes` probabilities from `offset`) under the recogniser and the
 * language model, or `greedy` itself when no step is uncertain or the search agrees with it.
 */
export function beamDecode(
  probs: Float32Array,
  offset: number,
  steps: number,
  classes: number,
  chars: readonly string[],
  lm: CharNgramModel,
  greedy: DecodedLine,
  opts: BeamOptions = DEFAULT_BEAM,
): DecodedLine {
  const order = scanOrder(chars, classes);
  if (everyStepCertain(probs, offset, steps, order, classes, opts.certain)) return greedy;
  const perStep: [number, number][][] = [];
  for (let t = 0; t < steps; t++) perStep.push(stepCandidates(probs, offset + t * classes, order, opts.candidates, opts.minProb));

  let beam = new Map<string, Reading>([['', { labels: [], text: '', context: lm.context(''), blank: 0, char: -Infinity, lm: 0 }]]);
  const score = (r: Reading) => logAdd(r.blank, r.char) + opts.alpha * r.lm + opts.beta * r.text.length;
  for (let t = 0; t < steps; t++) {
    const next = new Map<string, Reading>();
    const entry = (labels: number[], text: string, context: string, lmScore: number): Reading => {
      let r = next.get(text);
      if (!r) {
        r = { labels, text, context, blank: -Infinity, char: -Infinity, lm: lmScore };
        next.set(text, r);
      }
      return r;
    };
    for (const r of beam.values()) {
      const total = logAdd(r.blank, r.char);
      const last = r.labels.length ? r.labels[r.labels.length - 1]! : -1;
      for (const [c, p] of perStep[t]!) {
        const lp = Math.log(p);
        if (c === 0) {
          const same = entry(r.labels, r.text, r.context, r.lm);
          same.blank = logAdd(same.blank, total + lp);
          continue;
        }
        const ch = chars[c] ?? '';
        if (!ch) continue;
        const text = r.text + ch;
        const longer = entry([...r.labels, c], text, lm.nextContext(r.context, ch), r.lm + lm.logProb(r.context, ch));
        if (c === last) {
          // The same class again: one character continued, unless a blank came between.
          longer.char = logAdd(longer.char, r.blank + lp);
          const same = entry(r.labels, r.text, r.context, r.lm);
          same.char = logAdd(same.char, r.char + lp);
        } else {
          longer.char = logAdd(longer.char, total + lp);
        }
      }
    }
    beam = new Map([...next.entries()].sort((a, b) => score(b[1]) - score(a[1])).slice(0, opts.width));
  }
  let best: Reading | undefined;
  let bestScore = -Infinity;
  for (const r of beam.values()) {
    const s = score(r) + opts.alpha * lm.logProb(r.context, 'end');
    if (s > bestScore) {
      bestScore = s;
      best = r;
    }
  }
  if (!best || best.text === greedy.text) return greedy;
  return align(probs, offset, steps, classes, best) ?? greedy;
}

/**
 * The time step and probability of each of a reading's characters on its likeliest alignment (Viterbi over the
 * reading's classes with blanks between them): each character sits at the first step of its run, as the greedy
 * reading places it.
 */
function align(probs: Float32Array, offset: number, steps: number, classes: number, reading: Reading): DecodedLine | undefined {
  const labels = reading.labels;
  const states = 2 * labels.length + 1;
  const classOf = (s: number) => (s % 2 === 0 ? 0 : labels[(s - 1) / 2]!);
  const logP = (t: number, s: number) => Math.log(probs[offset + t * classes + classOf(s)]! + 1e-12);
  let prev = new Float64Array(states).fill(-Infinity);
  const back: Int32Array[] = [];
  prev[0] = logP(0, 0);
  if (states > 1) prev[1] = logP(0, 1);
  back.push(new Int32Array(states).fill(-1));
  for (let t = 1; t < steps; t++) {
    const cur = new Float64Array(states).fill(-Infinity);
    const from = new Int32Array(states).fill(-1);
    for (let s = 0; s < states; s++) {
      let best = prev[s]!;
      let arg = s;
      if (s >= 1 && prev[s - 1]! > best) {
        best = prev[s - 1]!;
        arg = s - 1;
      }
      if (s >= 2 && classOf(s) !== 0 && classOf(s) !== classOf(s - 2) && prev[s - 2]! > best) {
        best = prev[s - 2]!;
        arg = s - 2;
      }
      if (best === -Infinity) continue;
      cur[s] = best + logP(t, s);
      from[s] = arg;
    }
    back.push(from);
    prev = cur;
  }
  let s = states > 1 && prev[states - 2]! > prev[states - 1]! ? states - 2 : states - 1;
  if (prev[s] === -Infinity) return undefined;
  const path = new Int32Array(steps);
  for (let t = steps - 1; t >= 0; t--) {
    path[t] = s;
    s = back[t]![s]!;
  }
  const positions: number[] = new Array(labels.length).fill(-1);
  const confidences: number[] = new Array(labels.length).fill(0);
  for (let t = 0; t < steps; t++) {
    const st = path[t]!;
    if (st % 2 === 1) {
      const i = (st - 1) / 2;
      if (positions[i] === -1) {
        positions[i] = t;
        confidences[i] = probs[offset + t * classes + labels[i]!]!;
      }
    }
  }
  if (positions.includes(-1)) return undefined;
  // A step this reading leaves blank where the recogniser's likeliest class is a character that neither neighbour
  // is (the greedy reading's `T` of `MR. D.I.T (M)`, dropped for `MR. D.I. (M)`): the reading is no surer there
  // than the blank, so the character before the gap (or after it, at the start) takes the blank's probability when
  // lower. A dropped character weighs on the word's confidence as a replaced one does.
  for (let t = 0; t < steps; t++) {
    const st = path[t]!;
    if (st % 2 === 1 || !labels.length) continue;
    const base = offset + t * classes;
    let likeliest = 0;
    for (let c = 1; c < classes; c++) if (probs[base + c]! > probs[base + likeliest]!) likeliest = c;
    const before = st / 2 - 1;
    const after = st / 2;
    if (likeliest === 0 || likeliest === labels[before] || likeliest === labels[after]) continue;
    const i = before >= 0 ? before : after;
    confidences[i] = Math.min(confidences[i]!, probs[base]!);
  }
  return { text: reading.text, confidences, positions };
}
