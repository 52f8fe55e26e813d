import { describe, expect, it } from 'vitest';
import { CharNgramModel } from '../../../lambdas/adapters/local-recogniser/char-ngram';
import { beamDecode } from '../../../lambdas/adapters/local-recogniser/ctc-beam';
import { ctcDecode } from '../../../lambdas/adapters/local-recogniser/line-text';
import { loadLanguageModel } from '../../../lambdas/adapters/local-recogniser/paddle-models';

const chars = ['', 'J', 'A', 'L', 'N', 'U', 'T', 'O', 'X', 'Y', ' '];

/** One time step's probabilities: the given classes (blank is '') with their shares, the rest spread evenly. */
function step(shares: Record<string, number>): number[] {
  const row = new Array<number>(chars.length).fill(0);
  const given = Object.values(shares).reduce((s, p) => s + p, 0);
  const others = chars.length - Object.keys(shares).length;
  for (let c = 0; c < chars.length; c++) row[c] = shares[chars[c]!] ?? (1 - given) / others;
  return row;
}

function rows(steps: Record<string, number>[]): Float32Array {
  return Float32Array.from(steps.flatMap(step));
}

function decode(probs: Float32Array, lm: CharNgramModel, offset = 0, steps = probs.length / chars.length) {
  const greedy = ctcDecode(probs, offset, steps, chars.length, chars);
  return { greedy, beam: beamDecode(probs, offset, steps, chars.length, chars, lm, greedy) };
}

const streets = new CharNgramModel(['JALAN TUN', 'JALAN AJA', 'JALAN LALAT', 'TAMAN JAYA', 'JALAN JATI']);

describe('character language model', () => {
  it('finds a character likelier where the lines put it after the same characters', () => {
    const ctx = streets.context('JALA');
    expect(streets.logProb(ctx, 'N')).toBeGreaterThan(streets.logProb(ctx, 'U') + 2);
  });

  it('counts letters in upper case', () => {
    expect(streets.logProb(streets.context('jala'), 'n')).toBeCloseTo(streets.logProb(streets.context('JALA'), 'N'), 10);
  });

  it('gives every character after a context a share that adds up to one with the unseen', () => {
    const seen = [...new Set('JALAN TUN AJA LALAT TAMAN JAYA JATI'.split(''))];
    for (const ctx of ['', 'JALA', 'QQQQ', 'N']) {
      const c = streets.context(ctx);
      const total = [...seen, '~'].reduce((s, ch) => s + Math.exp(streets.logProb(c, ch)), 0) + Math.exp(streets.logProb(c, 'end'));
      expect(total).toBeCloseTo(1, 6);
    }
  });

  it('gives the probabilities Witten–Bell interpolation gives, worked by hand on a small text', () => {
    // Lines "AB" and "AC", order 2. After "A": B and C once each (2 in all, 2 kinds). Alone: A 2, B 1, C 1 and the
    // line's end 2 (6 in all, 4 kinds); the vocabulary is those 4 and one for every character never seen.
    const lm = new CharNgramModel(['AB', 'AC'], 2);
    const unigram = (n: number) => (6 / 10) * (n / 6) + (4 / 10) * (1 / 5);
    const afterA = (n: number, u: number) => (2 / 4) * (n / 2) + (2 / 4) * u;
    expect(lm.logProb(lm.context('A'), 'B')).toBeCloseTo(Math.log(afterA(1, unigram(1))), 12);
    expect(lm.logProb(lm.context('A'), 'A')).toBeCloseTo(Math.log(afterA(0, unigram(2))), 12);
    expect(lm.logProb(lm.context('A'), 'Z')).toBeCloseTo(Math.log(afterA(0, unigram(0))), 12);
    // A context never seen falls back to the unigrams.
    expect(lm.logProb(lm.context('Q'), 'B')).toBeCloseTo(Math.log(unigram(1)), 12);
  });

  it('counts a text of thousands of different characters, the rarest past the limit as never seen', () => {
    const many = Array.from({ length: 2000 }, (_, i) => String.fromCharCode(0x4e00 + i));
    const lm = new CharNgramModel([many.join(''), 'JALAN', 'JALAN']);
    const ctx = lm.context('JALA');
    expect(lm.logProb(ctx, 'N')).toBeGreaterThan(Math.log(0.5));
    const last = many[many.length - 1]!;
    expect(lm.logProb(lm.context(''), last)).toBeCloseTo(lm.logProb(lm.context(''), '~'), 12);
    expect(Number.isFinite(lm.logProb(lm.context(many.slice(0, 5).join('')), many[5]!))).toBe(true);
  });

  it('ships one of receipt text, which the recogniser reads with unless told `none`', () => {
    const shipped = loadLanguageModel(undefined)!;
    expect(shipped.order).toBe(6);
    for (const [before, right, wrong] of [
      ['SUB TOTA', 'L', 'I'],
      ['JALA', 'N', 'U'],
      ['SDN BH', 'D', 'O'],
      ['CHANG', 'E', 'F'],
    ] as const) {
      expect(shipped.logProb(shipped.context(before), right)).toBeGreaterThan(shipped.logProb(shipped.context(before), wrong) + 2);
    }
    expect(loadLanguageModel('none')).toBeUndefined();
  });

  it('normalises lines as it counts them', () => {
    expect(CharNgramModel.normalise('  Jalan   Tun \t')).toBe('JALAN TUN');
  });
});

describe('beam search with the language model', () => {
  const blank = { '': 0.98 };

  it('keeps the greedy reading of a line read with certainty', () => {
    const probs = rows([{ J: 0.99 }, blank, { A: 0.99 }, { L: 0.99 }, blank, { A: 0.99 }, { U: 0.95, N: 0.04 }]);
    const { greedy, beam } = decode(probs, streets);
    expect(greedy.text).toBe('JALAU');
    expect(beam).toBe(greedy);
  });

  it('reads the letter the lines make likely where the recogniser hesitates', () => {
    const probs = rows([{ J: 0.99 }, blank, { A: 0.99 }, { L: 0.99 }, blank, { A: 0.99 }, { U: 0.55, N: 0.44 }, blank]);
    const { greedy, beam } = decode(probs, streets);
    expect(greedy.text).toBe('JALAU');
    expect(beam.text).toBe('JALAN');
    // The new letter sits at its own time step with the recogniser's probability of it.
    expect(beam.positions).toEqual([0, 2, 3, 5, 6]);
    expect(beam.confidences[4]).toBeCloseTo(0.44, 5);
    expect(beam.confidences.slice(0, 4).every((c) => Math.abs(c - 0.99) < 1e-6)).toBe(true);
  });

  it('is no surer of a reading that drops a character than of the blank it reads there instead', () => {
    const lines = new CharNgramModel(['JALAN', 'JALAN TUN', 'JALAN', 'TAMAN JAYA']);
    const probs = rows([{ J: 0.99 }, blank, { A: 0.99 }, { L: 0.99 }, blank, { A: 0.99 }, { N: 0.99 }, { X: 0.55, '': 0.44 }, blank]);
    const { greedy, beam } = decode(probs, lines);
    expect(greedy.text).toBe('JALANX');
    expect(beam.text).toBe('JALAN');
    // The N before the dropped X takes the blank's 0.44; the other letters keep theirs.
    expect(beam.confidences[4]).toBeCloseTo(0.44, 5);
    expect(beam.confidences.slice(0, 4).every((c) => Math.abs(c - 0.99) < 1e-6)).toBe(true);
  });

  it('leaves the recogniser to decide where the lines say nothing of either letter', () => {
    const probs = rows([{ X: 0.6, Y: 0.39 }, blank, { X: 0.99 }]);
    const { greedy, beam } = decode(probs, streets);
    expect(greedy.text).toBe('XX');
    expect(beam.text).toBe('XX');
  });

  it('keeps a letter printed twice apart from one letter read over two steps', () => {
    // "JALLAN" is no street of the lines, but a blank between the two L's makes them two letters.
    const twice = rows([{ J: 0.99 }, { A: 0.99 }, { L: 0.99 }, blank, { L: 0.99 }, { A: 0.99 }, { N: 0.6, U: 0.39 }]);
    expect(decode(twice, streets).beam.text).toBe('JALLAN');
    const once = rows([{ J: 0.99 }, { A: 0.99 }, { L: 0.99 }, { L: 0.99 }, { A: 0.99 }, { U: 0.6, N: 0.39 }]);
    expect(decode(once, streets).beam.text).toBe('JALAN');
  });

  it('reads a line from its offset in a batch', () => {
    const first = rows([{ X: 0.99 }, blank]);
    const second = rows([{ J: 0.99 }, { A: 0.99 }, { L: 0.99 }, { A: 0.99 }, { U: 0.55, N: 0.44 }]);
    const probs = Float32Array.from([...first, ...second]);
    const { greedy, beam } = decode(probs, streets, first.length, second.length / chars.length);
    expect(greedy.text).toBe('JALAU');
    expect(beam.text).toBe('JALAN');
  });
});
