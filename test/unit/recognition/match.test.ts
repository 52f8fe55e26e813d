import { describe, expect, it } from 'vitest';
import { normaliseCompanyName } from '../../../lambdas/core/recognition/extract/legal';
import { candidateWords, identifiersDiffer, lookupStakeholder, matchItem, matchLineItems, matchStakeholder, nameSimilarity, oneOfSameName, wordOverlap, type StakeholderLookup } from '../../../lambdas/core/recognition/match';
import type { ExtractedFields, FieldValue, Stakeholder } from '../../../lambdas/core/recognition/types';

const stakeholders: Stakeholder[] = [
  { id: 's1', name: 'UAB „Šviesos technika“', code: '302998877', vat_id: 'LT300123415', category_id: 'c-el' },
  { id: 's2', name: 'BOOK TA .K (TAMAN DAYA) SDN BHD', category_id: 'c-books' },
  { id: 's3', name: 'Northwind Office Supplies Ltd', code: '304567891', category_id: 'c-office' },
  { id: 's4', name: 'Northwind Logistics Ltd', vat_id: 'LT119511515' },
];

const v = (value: string): FieldValue => ({ value, page: 1, box: { left: 0, top: 0, width: 0, height: 0 }, confidence: 90 });

describe('matching the supplier to master data', () => {
  it('matches by VAT ID first, even when the name differs', () => {
    const m = matchStakeholder({ vat_id: 'LT 300123415', name: 'Other name' }, stakeholders);
    expect(m).toMatchObject({ isNew: false, by: 'vat_id', stakeholder: { id: 's1' } });
    expect(matchStakeholder({ vat_id: '119511515' }, stakeholders)).toMatchObject({ isNew: false, by: 'vat_id', stakeholder: { id: 's4' } });
  });

  it('then by company code', () => {
    expect(matchStakeholder({ vat_id: 'LT999999999', code: '304 567 891', name: 'x' }, stakeholders)).toMatchObject({ isNew: false, by: 'code', stakeholder: { id: 's3' } });
  });

  it.each([
    ['Šviesos technika, UAB', 's1'],
    ['UAB SVIESOS TECHNIKA', 's1'],
    ['Book Ta .K (Taman Daya) Sdn. Bhd.', 's2'],
    ['BOOK TA.K (TAMAN DAYA)', 's2'],
    ['NORTHWIND OFFICE SUPPLIES LIMITED', 's3'],
    ['Northwind Offlce Supplies Ltd', 's3'],
  ])('then by normalised name: %s', (name, id) => {
    expect(matchStakeholder({ name }, stakeholders)).toMatchObject({ isNew: false, by: 'name', stakeholder: { id } });
  });

  it('reads the keys from extracted fields, for the supplier or the customer', () => {
    const fields: ExtractedFields = { vat_lines: [], line_items: [], supplier_name: v('Northwind Office Supplies Ltd'), customer_vat_id: v('LT300123415') };
    expect(matchStakeholder(fields, stakeholders)).toMatchObject({ stakeholder: { id: 's3' } });
    expect(matchStakeholder(fields, stakeholders, 'customer')).toMatchObject({ stakeholder: { id: 's1' } });
  });

  it('says the party is new when nothing matches, with what was read', () => {
    expect(matchStakeholder({ name: 'Northwind', vat_id: 'LT100001919017' }, stakeholders)).toEqual({ isNew: true, name: 'Northwind', vat_id: 'LT100001919017' });
    expect(matchStakeholder({}, stakeholders)).toEqual({ isNew: true });
    expect(matchStakeholder({ name: 'Northwind Ltd' }, [])).toEqual({ isNew: true, name: 'Northwind Ltd' });
  });

  it('never matches by name a stakeholder whose VAT ID or code is another company\'s (one group, one trading name)', async () => {
    const diy: Stakeholder = { id: 'd1', name: 'MR. D.I.Y. SDN BHD', code: '704427-T', vat_id: '001092886528' };
    const register = [diy, ...stakeholders];
    // Printed with its own numbers: another company of the group.
    expect(matchStakeholder({ name: 'MR. D.I.Y. (M) SDN BHD', code: '860671-D', vat_id: '000306020352' }, register)).toMatchObject({ isNew: true });
    expect(matchStakeholder({ name: 'MR. D.I.Y. SDN BHD', vat_id: '000306020352' }, register)).toMatchObject({ isNew: true });
    // Without numbers, or with the same ones, the name is enough.
    expect(matchStakeholder({ name: 'MR. D.I.Y. (M) SDN BHD' }, register)).toMatchObject({ isNew: false, by: 'name', stakeholder: { id: 'd1' } });
    expect(matchStakeholder({ name: 'MR. D.I.Y. SDN BHD', code: '704427 T' }, register)).toMatchObject({ isNew: false, stakeholder: { id: 'd1' } });
    expect(identifiersDiffer({ vat_id: 'LT300123415' }, { vat_id: '300123415' })).toBe(false);
    expect(identifiersDiffer({ vat_id: 'LT300123415' }, { vat_id: null, code: '302998877' })).toBe(false);
    expect(identifiersDiffer({ code: '302998878' }, { code: '302998877' })).toBe(true);
    // The same against a register too large to load: neither the exact name key nor the name candidates.
    const lookup: StakeholderLookup = {
      byVat: async () => [],
      byCode: async () => undefined,
      byName: async () => [diy],
      nameCandidates: async () => [diy],
    };
    expect(await lookupStakeholder({ name: 'MR. D.I.Y. (M) SDN BHD', vat_id: '000306020352' }, lookup)).toMatchObject({ isNew: true });
    expect(await lookupStakeholder({ name: 'MR. D.I.Y. SDN BHD', vat_id: '000306020352' }, { ...lookup, byName: async () => [] })).toMatchObject({ isNew: true });
    expect(await lookupStakeholder({ name: 'MR. D.I.Y. SDN BHD' }, lookup)).toMatchObject({ isNew: false, stakeholder: { id: 'd1' } });
  });

  it('of several companies whose names normalise alike, takes the one written so, else none', async () => {
    const group: Stakeholder[] = [
      { id: 'g1', name: 'MR. D.I.Y. SDN BHD' },
      { id: 'g2', name: 'MR. D.I.Y. (M) SDN BHD' },
      { id: 'g3', name: 'MR. D.I.Y. (KUCHAI) SDN BHD' },
    ];
    expect(matchStakeholder({ name: 'MR. D.I.Y. (M) SDN BHD' }, group)).toMatchObject({ isNew: false, stakeholder: { id: 'g2' } });
    expect(matchStakeholder({ name: 'Mr. D.I.Y. (Kuchai) Sdn. Bhd.' }, group)).toMatchObject({ isNew: false, stakeholder: { id: 'g3' } });
    expect(matchStakeholder({ name: 'MR DIY' }, group)).toMatchObject({ isNew: true });
    expect(oneOfSameName({ name: 'MR DIY', vat_id: '000306020352' }, [{ name: 'MR. D.I.Y. SDN BHD', vat_id: '001092886528' }, { name: 'MR. D.I.Y. (M) SDN BHD' }])).toEqual({ name: 'MR. D.I.Y. (M) SDN BHD' });
    const lookup: StakeholderLookup = { byVat: async () => [], byCode: async () => undefined, byName: async () => group, nameCandidates: async () => group };
    expect(await lookupStakeholder({ name: 'MR. D.I.Y. (M) SDN BHD' }, lookup)).toMatchObject({ isNew: false, stakeholder: { id: 'g2' } });
    expect(await lookupStakeholder({ name: 'MR DIY SDN BHD' }, lookup)).toMatchObject({ isNew: true });
  });

  it('of suppliers sharing a VAT ID, takes the one the document code or name says, else the oldest', async () => {
    // Oldest first, as the register keeps them.
    const alfa: Stakeholder = { id: 'alfa', name: 'Alfa Trade UAB', code: '111111111', vat_id: 'LT999999999' };
    const logistika: Stakeholder = { id: 'logistika', name: 'Alfa Trade Logistika UAB', code: '222222222', vat_id: 'LT999999999' };
    const register = [alfa, logistika, ...stakeholders];
    const lookup: StakeholderLookup = {
      byVat: async (vat) => [alfa, logistika].filter((s) => s.vat_id === vat),
      byCode: async (code) => [alfa, logistika].find((s) => s.code === code),
      byName: async () => [],
      nameCandidates: async () => [],
    };
    const cases: [Parameters<typeof lookupStakeholder>[0], string][] = [
      [{ name: 'Alfa Trade Logistika UAB', vat_id: 'LT999999999', code: '222222222' }, 'logistika'],
      [{ name: 'Alfa Trade', vat_id: 'LT 999999999', code: '222 222 222' }, 'logistika'],
      [{ name: 'Alfa Trade Logistika UAB', vat_id: 'LT999999999' }, 'logistika'],
      [{ name: 'ALFA TRADE LOGISTIKA, UAB', vat_id: 'LT999999999' }, 'logistika'],
      [{ name: 'Kažkas', vat_id: 'LT999999999' }, 'alfa'],
      [{ vat_id: 'LT999999999', code: '111111111' }, 'alfa'],
      // Both say another company code: the VAT ID outweighs the code, the oldest is taken.
      [{ vat_id: 'LT999999999', code: '333333333' }, 'alfa'],
      [{ name: 'Alfa Trade Logistika UAB', vat_id: 'LT999999999', code: '333333333' }, 'logistika'],
    ];
    for (const [party, id] of cases) {
      for (const m of [matchStakeholder(party, register), await lookupStakeholder(party, lookup)]) {
        expect(m, JSON.stringify(party)).toMatchObject({ isNew: false, by: 'vat_id', stakeholder: { id } });
      }
    }
  });

  it('looks a VAT ID printed without its country letters up with the home country prefix too', async () => {
    const azuolas: Stakeholder = { id: 'azuolas', name: 'UAB „Ąžuolų šilas“', code: '0012345', vat_id: 'LT100001234567' };
    const calls: string[] = [];
    const lookup: StakeholderLookup = {
      byVat: async (vat) => (calls.push(vat), [azuolas].filter((s) => s.vat_id === vat)),
      byCode: async () => undefined,
      byName: async () => [],
      nameCandidates: async () => [],
    };
    expect(await lookupStakeholder({ name: 'Nepažįstamas', vat_id: '100001234567' }, lookup)).toMatchObject({ isNew: false, by: 'vat_id', stakeholder: { id: 'azuolas' } });
    expect(calls).toEqual(['100001234567', 'LT100001234567']);
    // Another home country: that prefix, not LT.
    calls.length = 0;
    expect(await lookupStakeholder({ vat_id: '100001234567' }, lookup, 'LV')).toMatchObject({ isNew: true });
    expect(calls).toEqual(['100001234567', 'LV100001234567']);
    // A value with country letters is looked up as printed and without them, as before.
    calls.length = 0;
    await lookupStakeholder({ vat_id: 'DE123456789' }, lookup);
    expect(calls).toEqual(['DE123456789', '123456789']);
  });

  it('finds a name read with an OCR slip among many that share its other word, page by page of the register', async () => {
    const target: Stakeholder = { id: 'zuikis', name: 'Transportas Žuikis UAB', code: '333333333' };
    const register: Stakeholder[] = [
      ...Array.from({ length: 40 }, (_, i) => ({ id: `t${i}`, name: `${String.fromCharCode(65 + (i % 26))}${'a'.repeat(1 + Math.floor(i / 26))} Transportas`, code: `30000${i}` })),
      target,
    ];
    // The store's name search: names having a word that starts so, by that word and then the name, one page.
    const fold = (x: string) => x.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
    const pageOf = (prefix: string) =>
      register
        .flatMap((s) => {
          const word = fold(s.name).split(/[^a-z0-9&]+/).filter((w) => w.startsWith(prefix)).sort()[0];
          return word ? [{ s, key: `${word}#${fold(s.name)}` }] : [];
        })
        .sort((a, b) => (a.key < b.key ? -1 : 1))
        .slice(0, 20)
        .map((x) => x.s);
    const asked: string[] = [];
    const lookup: StakeholderLookup = { byVat: async () => [], byCode: async () => undefined, byName: async () => [], nameCandidates: async (p) => (asked.push(p), pageOf(p)) };
    expect(await lookupStakeholder({ name: 'Transportas Žuiklis UAB' }, lookup)).toMatchObject({ isNew: false, by: 'name', stakeholder: { id: 'zuikis' } });
    expect(asked).toEqual(['tran', 'zuik']);
    expect(candidateWords('UAB „Transportas Žuiklis“ ir ko')).toEqual(['tran', 'zuik']);
    expect(candidateWords('Vilniaus miesto savivaldybės administracijos skyrius')).toEqual(['admi', 'savi', 'viln']);
    expect(candidateWords('A&B')).toEqual([]);
  });

  it('normalises names: case, punctuation, diacritics and legal forms', () => {
    expect(normaliseCompanyName('UAB „Šviesos technika“')).toBe('SVIESOS TECHNIKA');
    expect(normaliseCompanyName('99 SPEED MART S/B')).toBe('99 SPEED MART');
    expect(normaliseCompanyName('AEON CO. (M) BHD')).toBe('AEON');
    expect(normaliseCompanyName('Acme GmbH')).toBe('ACME');
    expect(nameSimilarity('ACME Ltd', 'Acme Limited')).toBe(1);
    expect(nameSimilarity('ACME', 'ZETA')).toBeLessThan(0.5);
  });
});

describe('matching line items to the catalogue', () => {
  const catalogue = [
    { id: 'i1', name: 'Copy paper A4 500 sheets', code: 'PAP-A4-500' },
    { id: 'i2', name: 'Toner cartridge HP 26A' },
    { id: 'i3', name: 'LED lemputė E27 9W' },
  ];

  it('by product code, then by the words of the description', () => {
    expect(matchItem({ product_code: 'pap-a4-500', description: 'whatever' }, catalogue)).toMatchObject({ isNew: false, by: 'code', item: { id: 'i1' } });
    expect(matchItem({ description: 'HP 26A toner cartridge (black)' }, catalogue)).toMatchObject({ isNew: false, by: 'words', item: { id: 'i2' } });
    expect(matchItem({ description: 'LED lemputė 9 W E27' }, catalogue)).toMatchObject({ isNew: false, item: { id: 'i3' } });
    expect(matchItem({ description: 'Coffee beans 1 kg' }, catalogue)).toEqual({ isNew: true });
    expect(wordOverlap('Toner cartridge HP 26A', 'toner cartridge hp 26a')).toBe(1);
  });

  it('a line with two words of one item and one word of another takes the first item, whatever the catalogue order', () => {
    const printer = { id: 'printer', name: 'Printer paper A4', words: ['paper', 'A4', 'popierius'] };
    const towels = { id: 'towels', name: 'Paper towels', words: ['paper', 'towels'] };
    for (const order of [[printer, towels], [towels, printer]]) {
      expect(matchItem({ description: 'Printer paper A4 500 sheets' }, order)).toMatchObject({ isNew: false, by: 'item_word', item: { id: 'printer' } });
      expect(matchItem({ description: 'Paper towels 2 rolls' }, order)).toMatchObject({ isNew: false, by: 'item_word', item: { id: 'towels' } });
    }
    // A phrase counts with each of its words: "diesel premium" outweighs "diesel" and "premium" alone.
    const fuel = { id: 'fuel', name: 'Fuel', words: ['diesel'] };
    const premium = { id: 'premium', name: 'Premium fuel', words: ['diesel premium'] };
    const extra = { id: 'extra', name: 'Extras', words: ['premium'] };
    for (const order of [[fuel, extra, premium], [premium, extra, fuel]]) {
      expect(matchItem({ description: 'Diesel Premium 10 L' }, order)).toMatchObject({ isNew: false, item: { id: 'premium' } });
    }
  });

  it('of items whose words the line holds alike, the name decides; a tie on the name too leaves the line unmatched', () => {
    const plain = { id: 'plain', name: 'Paper', words: ['paper'] };
    const towels = { id: 'towels', name: 'Paper towels', words: ['paper', 'napkins'] };
    for (const order of [[plain, towels], [towels, plain]]) {
      expect(matchItem({ description: 'Paper 80 g' }, order)).toMatchObject({ isNew: false, by: 'item_word', item: { id: 'plain' } });
    }
    const a3 = { id: 'a3', name: 'Office paper A3', words: ['paper'] };
    const a5 = { id: 'a5', name: 'Office paper A5', words: ['paper'] };
    for (const order of [[a3, a5], [a5, a3]]) {
      expect(matchItem({ description: 'Paper 80 g' }, order)).toEqual({ isNew: true });
      // The name step, too, takes no item by its place in the catalogue.
      expect(matchItem({ description: 'Office paper' }, order.map(({ words: _w, ...item }) => item))).toEqual({ isNew: true });
    }
  });

  it('matches every line of an extraction', () => {
    const fields: ExtractedFields = { vat_lines: [], line_items: [{ description: v('Copy paper A4, 500 sheets') }, { description: v('Stapler') }] };
    expect(matchLineItems(fields, catalogue).map((m) => (m.isNew ? null : m.item.id))).toEqual(['i1', null]);
  });
});
