import { describe, expect, it } from 'vitest';
import { knownFirstWord, knownSpelling, nearestKnownLine, printedLineKey } from '../../../lambdas/core/recognition/extract/known-spellings';
import { cleanCompanyName, extractSupplierHeader, NAME_DOUBT, normalisePunctuationSpacing } from '../../../lambdas/core/recognition/extract/supplier';
import { extractDocument } from '../../../lambdas/core/recognition/extract';
import { documentRows } from '../../../lambdas/core/recognition/extract/rows';
import { textDocument, textRows } from './helpers';

/** Rows of the lines, the word `weak` read at `at`, every other word as `textDocument` reads it or at `others`. */
function rowsReading(lines: string[], weak: string, at: number, others?: number) {
  const doc = textDocument(lines);
  for (const w of doc.pages[0]!.lines.flatMap((l) => l.words)) w.confidence = w.text === weak ? at : (others ?? w.confidence);
  return documentRows(doc);
}

describe("the seller's name", () => {
  it.each([
    // Spacing around punctuation as names are printed.
    ['MR . D.I .Y . SDN BHD', 'MR. D.I.Y. SDN BHD'],
    ['GARDENIA BAKERIES(KL)SDN BHD', 'GARDENIA BAKERIES (KL) SDN BHD'],
    ['AIK HUAT ENTERPRISE ( SETIA ALAM )SDN BHD', 'AIK HUAT ENTERPRISE (SETIA ALAM) SDN BHD'],
    ['MR. D.I.Y.(M) SDN BHD', 'MR. D.I.Y. (M) SDN BHD'],
    ['POPULAR BOOK CO. (M) SDN BHD', 'POPULAR BOOK CO. (M) SDN BHD'],
    ['SINNATHAMBY HOLDINGS SDN. BHD.', 'SINNATHAMBY HOLDINGS SDN. BHD.'],
    // Legal forms run into the words before them.
    ['OGNGROUPSDN BHD', 'OGN GROUP SDN BHD'],
    ['SANYUSTATIONERYSHOP', 'SANYU STATIONERY SHOP'],
    ['99 SPEEDMART S/B', '99 SPEED MART S/B'],
    // A run of business words in a name whose other words the reading spaced is printed so.
    ['TANJONGMAS BOOKCENTRE (PJ) SDN BHD', 'TANJONGMAS BOOKCENTRE (PJ) SDN BHD'],
    ['Guardian Health And Heauty Sdn Bhd', 'Guardian Health And Beauty Sdn Bhd'],
    ['SWC ENTERPRISE SDN L BHD', 'SWC ENTERPRISE SDN BHD'],
    ['SWC ENTERPRISE SDN 1 BHD', 'SWC ENTERPRISE SDN BHD'],
    ['SWC ENTERPRISE SDN L I BHD', 'SWC ENTERPRISE SDN BHD'],
    ['SWC ENTERPRISE SDN LI BHD', 'SWC ENTERPRISE SDN BHD'],
    // SDN is always followed by BHD: a word of three letters after it ending the name is the BHD misread.
    ['AIK HUAT HARDWARE SDN HHI', 'AIK HUAT HARDWARE SDN BHD'],
    ['Timeless Kitchenette Sdn Bhnd', 'Timeless Kitchenette Sdn Bhd'],
    // A name ending on SDN lost its BHD.
    ['ONE ONE THREE SEAFOOD RESTAURANT SDN', 'ONE ONE THREE SEAFOOD RESTAURANT SDN BHD'],
    ['Timeless Kitchenette Sdn.', 'Timeless Kitchenette Sdn. Bhd.'],
    ['SDN', 'SDN'],
    ['MR.D. I.Y. (M) SDN BHD', 'MR. D.I.Y. (M) SDN BHD'],
    ['AIK HUAT HARDWARE ENTERPRISE ISETIA ALAM) SDN BHD', 'AIK HUAT HARDWARE ENTERPRISE (SETIA ALAM) SDN BHD'],
    ['CT281- Tealive ShellKepong', 'CT281 - Tealive Shell Kepong'],
    ['HOME MASTER HARDWARE& ELECTRICAL', 'HOME MASTER HARDWARE & ELECTRICAL'],
    ['T PLUS F&B SDN. BHD.', 'T PLUS F&B SDN. BHD.'],
    ['99 SPEED MART 5/D', '99 SPEED MART S/B'],
    ['ABC HO TRADIN6', 'ABC HO TRADING'],
    // The bracketed letter before a Malaysian legal form is M; a title's M read as N.
    ['AEON CO. (N) BHD', 'AEON CO. (M) BHD'],
    ['POPULAR BOOK CO. (H) SDN BHD', 'POPULAR BOOK CO. (M) SDN BHD'],
    ['NR. D.I.Y. (N) SDN BHD', 'MR. D.I.Y. (M) SDN BHD'],
    ['Nr. Dakgalbi Solaris', 'Mr. Dakgalbi Solaris'],
    ['HR. D.I.Y. (M) SDN BHD', 'MR. D.I.Y. (M) SDN BHD'],
    ['AEON GO. (M) BHD', 'AEON CO. (M) BHD'],
    ['POPULAR BOOK CP. (M) SDN BHD', 'POPULAR BOOK CO. (M) SDN BHD'],
    // A 1 is an L where that makes a word; no word starts with two Is but a Roman numeral.
    ['RELAIS TOTA1 OULMES', 'RELAIS TOTAL OULMES'],
    ['IIAN HING STATIONERY SDN BHD', 'LIAN HING STATIONERY SDN BHD'],
    ['WISMA UOA II', 'WISMA UOA II'],
    ['ABC (N) TRADING', 'ABC (N) TRADING'],
    ['NRT HOLDINGS', 'NRT HOLDINGS'],
    ['6ERBANG ALAF RESTAURANTS SDN BHD', 'GERBANG ALAF RESTAURANTS SDN BHD'],
    ['A6 MART', 'A6 MART'],
    ['GARDENIA B AKERIES(KL)SDN BHD (1 B9386 X)', 'GARDENIA BAKERIES (KL) SDN BHD'],
    // What is left of a registration number after the legal form; a bracket before it never closed.
    ['GARDENIA BAKERIES (KL) SDN BHD (86 X)', 'GARDENIA BAKERIES (KL) SDN BHD'],
    ['KEDAI RUNCIT AH HOCK (2)', 'KEDAI RUNCIT AH HOCK (2)'],
    ['GARDENIA BAKERIES (KL SDN BHD', 'GARDENIA BAKERIES (KL) SDN BHD'],
    ['Gardenia Bakeries (KL Sdn Bhd', 'Gardenia Bakeries (KL) Sdn Bhd'],
    ['POPULAR BOOK CO. (M) SDN BHD', 'POPULAR BOOK CO. (M) SDN BHD'],
    // Known words are left alone.
    ['SUPERMARKET GROCER', 'SUPERMARKET GROCER'],
    ['PETRONAS', 'PETRONAS'],
    ['GARDENIA BAKERIES(KL)SDNBHD', 'GARDENIA BAKERIES (KL) SDN BHD'],
    ['UAB Pavyzdys', 'UAB Pavyzdys'],
    // Who owns the shop said on the name's own line; a shop's number before it; a former name after its number.
    ['DIMILIKI: BANH MI CAFE SDN BHD', 'BANH MI CAFE SDN BHD'],
    ['OWN BY: CHEF LEE SDN BHD', 'CHEF LEE SDN BHD'],
    ['#000002 BAIFU (M) SDN BHD', 'BAIFU (M) SDN BHD'],
    ['ECOSWAY.COM SDN BHD', 'ECOSWAY.COM SDN BHD'],
    ['MYNEWS RETAIL SB(306295-X) FKA BISON STORES SB', 'MYNEWS RETAIL SB'],
  ])('%s → %s', (raw, expected) => {
    expect(cleanCompanyName(raw)).toBe(expected);
  });

  it.each([
    ['A , B', 'A, B'],
    ['A( B )C', 'A (B) C'],
    ['[X]Y', '[X] Y'],
    ['SDNBHD', 'SDN BHD'],
    ['THE SDN BHD', 'THE SDN BHD'],
  ])('punctuation spacing: %s → %s', (raw, expected) => {
    expect(normalisePunctuationSpacing(raw)).toBe(expected);
  });

  it('takes a line of business words alone for a description of the name above it', () => {
    const rows = (name: string[]) => textRows([...name, 'NO 5 JALAN SS 2/1', '47300 PETALING JAYA', 'TEL: 03-7877 1234']);
    expect(extractSupplierHeader(rows(['GOLDEN LOTUS', 'BISTRO & CAFE'])).name?.value).toBe('GOLDEN LOTUS');
    // Without another name, the description is the name.
    expect(extractSupplierHeader(rows(['TAX INVOICE', 'BISTRO & CAFE'])).name?.value).toBe('BISTRO & CAFE');
    // A line with a word of its own keeps the business-word bonus.
    expect(extractSupplierHeader(rows(['WELCOME', 'LOTUS BISTRO & CAFE'])).name?.value).toBe('LOTUS BISTRO & CAFE');
  });

  it('finds the address from a first line whose words were read with look-alike glyphs', () => {
    const header = extractSupplierHeader(
      textRows(['BENS INDEPENDENT GROCER SDN. BHD', '(913144-A)', '1OT 6, JA1AN BATAI,', 'P1AZA BATAI, DAMANSARA HEIGHTS', '50490, KUALA 1UMPUR', 'T: 03-2093 7358']),
    );
    expect(header.address?.value).toBe('LOT 6, JALAN BATAI, PLAZA BATAI, DAMANSARA HEIGHTS 50490, KUALA LUMPUR');
    // A registration line read with a 0 for an O is still no address.
    const reg = extractSupplierHeader(textRows(['SIN THYE & COMPANY', 'REG. N0:00168397-H', 'N0.54, BATU 5,JALAN IPOH,', '51200 KUALA LUMPUR']));
    expect(reg.address?.value).toBe('NO.54, BATU 5,JALAN IPOH, 51200 KUALA LUMPUR');
  });

  it('continues a name over the line that closes a bracket it opened', () => {
    const header = extractSupplierHeader(textRows(['PERNIAGAAN HUP SENG (TAMAN', 'MELATI) HARDWARE', 'NO. 17-G, JALAN MELATI 2', '53100 KUALA LUMPUR']));
    expect(header.name?.value).toBe('PERNIAGAAN HUP SENG (TAMAN MELATI) HARDWARE');
    expect(header.address?.value).toBe('NO. 17-G, JALAN MELATI 2 53100 KUALA LUMPUR');
    // With the legal form misread too.
    const misread = extractSupplierHeader(textRows(['AIK HUAT HARDWARE', 'ENTERPRISE (SETIA', 'ALAM) SDN HHI', '822737-X', 'NO. 17-G, JALAN SETIA INDAH', '40170 SHAH ALAM']));
    expect(misread.name?.value).toBe('AIK HUAT HARDWARE ENTERPRISE (SETIA ALAM) SDN BHD');
  });

  it('keeps the full stops of initials at the end of a broken name line', () => {
    const rows = textRows(['MR. D.I.Y.', '(M) SDN BHD', '(Company No. 123456-A)', 'NO 5 JALAN SS 2/1', '47300 PETALING JAYA']);
    expect(extractSupplierHeader(rows).name?.value).toBe('MR. D.I.Y. (M) SDN BHD');
  });

  // A company's register number keeps its check letter where the label is misread past knowing ("Co-REi:").
  it.each([['C0.REG:704427-T)'], ['Co-RE: 860671-D'], ['Co.No. 1 13825-W)'], ['Companyro;1174703-K'], ['(CO. REG NO. 123456-A)'], ['Co-REi:360671-D']])(
    'skips the registration line %s before the address, however misread',
    (reg) => {
      const header = extractSupplierHeader(textRows(['SUNRISE MART SDN BHD', reg, 'LOT 5, JALAN SS 2/1', '47300 PETALING JAYA', 'TEL: 03-7877 1234']));
      expect(header.name?.value).toBe('SUNRISE MART SDN BHD');
      expect(header.address?.value).toBe('LOT 5, JALAN SS 2/1 47300 PETALING JAYA');
    },
  );

  it('skips a document title whose words the OCR ran together', () => {
    const header = extractSupplierHeader(
      textRows(['SIMPLIFIEDTAXINVOICE', 'SIN THYE & COMPANY', 'NO 12 JALAN BESAR', '43000KAJANG', 'TEL: 03-8736 1234']),
    );
    expect(header.name?.value).toBe('SIN THYE & COMPANY');
    // Also with a letter of the title misread.
    expect(extractSupplierHeader(textRows(['SIMPLIFIEDTAXINYOICE', 'SIN THYE & COMPANY', 'NO 12 JALAN BESAR'])).name?.value).toBe('SIN THYE & COMPANY');
    // The postcode run into the town is set apart.
    expect(header.address?.value).toBe('NO 12 JALAN BESAR 43000 KAJANG');
  });

  it('starts the address at a house number and its comma, also below a few lines about the owner', () => {
    const bistro = extractSupplierHeader(textRows(['THREE STOOGES', 'BISTRO & CAFE', '109, SS21/1A,', 'DAMANSARA UTAMA', 'GST ID : 001661886464']));
    expect(bistro.address?.value).toBe('109, SS21/1A, DAMANSARA UTAMA');
    const licensee = extractSupplierHeader(
      textRows([
        'GERBANG ALAF RESTAURANTS SDN BHD',
        '(65351-M)',
        'formerly known as',
        'Golden Arches Restaurants Sdn Bhd',
        "Licensee of McDonald's",
        'Level 6, Bangunan TH, Damansara Uptown3',
        'No.3, Jalan SS21/39, 47400 Petaling Jaya',
        'Selangor',
        '(GST ID No: 000504664064)',
      ]),
    );
    expect(licensee.address?.value).toBe('Level 6, Bangunan TH, Damansara Uptown3 No.3, Jalan SS21/39, 47400 Petaling Jaya Selangor');
  });

  it('takes no courtesy or returns line for the name, and a legal form read without its space for one', () => {
    const mynews = extractSupplierHeader(
      textRows(['TQ FOR SHOPPING WITH MYNEWS.COM', 'PUSAT DAGANGAN PHILEO DAMANSARA', 'UNIT 105', 'NO.9', 'MYNEWSCARELINE : 1800 88 1231', 'MYNEWS RETAIL SB(306295-X) FKA BISON STORES SB', 'TAX REG ID CBP 000709361664']),
    );
    expect(mynews.name?.value).toBe('MYNEWS RETAIL SB');
    const segi = extractSupplierHeader(
      textRows(['THANK YOU. PLEASE COME AGAIN.', 'GOODS SOLD ARE NOT RETURNABLE.', 'FOR FEEDBACK OR COMPLAINT', '011-3194 0284', '*REDEEM VOUCHER BEFORE POINTS EXPIRY!*', 'SEGI CASH & CARRY SDN.BHD', '(317041-W)', 'PT17920', '40150 SHAH ALAM']),
    );
    expect(segi.name?.value).toBe('SEGI CASH & CARRY SDN. BHD');
  });

  it('joins a name broken over lines printed as one block, not a line standing apart above it', () => {
    const apart = extractSupplierHeader(textRows(['TAN WOON YANN', '', 'YONGFATT ENTERPRISE', '(JM0517726)', 'NO 122.124 JALAN DEDAP 13', '81100 JOHOR BAHRU']));
    expect(apart.name?.value).toBe('YONGFATT ENTERPRISE');
    const block = extractSupplierHeader(textRows(['TAN WOON YANN', 'YONGFATT ENTERPRISE', '(JM0517726)', 'NO 122.124 JALAN DEDAP 13', '81100 JOHOR BAHRU']));
    expect(block.name?.value).toBe('TAN WOON YANN YONGFATT ENTERPRISE');
  });

  it('is less sure of a name whose last lone letter it left out, and keeps it in exact text', () => {
    const lines = ['RESTORAN DE COFFEE O', 'NO 33', 'BANDAR MAHKOTA CHERAS', '43200 CHERAS'];
    const read = extractSupplierHeader(textRows(lines));
    const plain = extractSupplierHeader(textRows(['RESTORAN DE COFFEE', ...lines.slice(1)]));
    expect(read.name?.value).toBe('RESTORAN DE COFFEE');
    expect(read.name!.confidence).toBeCloseTo(plain.name!.confidence * 0.9, 1);
    expect(extractSupplierHeader(textRows(lines), { repairMisreadings: false }).name?.value).toBe('RESTORAN DE COFFEE O');
  });

  it('is less sure of a name its owner is said of on the same line', () => {
    const owned = extractSupplierHeader(textRows(['OWN BY: CHEF LEE SDN BHD', 'NO 12 JALAN BESAR', '43000 KAJANG']));
    const plain = extractSupplierHeader(textRows(['CHEF LEE SDN BHD', 'NO 12 JALAN BESAR', '43000 KAJANG']));
    expect(owned.name?.value).toBe('CHEF LEE SDN BHD');
    expect(owned.name!.confidence).toBeCloseTo(plain.name!.confidence * 0.9, 1);
  });

  it('is less sure of a name with a letter standing alone in it, but not of initials', () => {
    const lone = extractSupplierHeader(textRows(['BOOK TA K (TAMAN DAYA) SDN BHD', 'NO.53, JALAN SAGU 18,', '81100 JOHOR BAHRU']));
    const whole = extractSupplierHeader(textRows(['BOOK TAK (TAMAN DAYA) SDN BHD', 'NO.53, JALAN SAGU 18,', '81100 JOHOR BAHRU']));
    const initials = extractSupplierHeader(textRows(['MR. D.I.Y. (M) SDN BHD', 'NO.53, JALAN SAGU 18,', '81100 JOHOR BAHRU']));
    expect(lone.name!.confidence).toBeCloseTo(whole.name!.confidence * 0.9, 1);
    expect(initials.name!.confidence).toBeCloseTo(whole.name!.confidence, 1);
    const split = extractSupplierHeader(textRows(['GARDENIA BAKERIES (K L) SDN BHD', 'LOT 3, JALAN PELABUR 23/1,', '40300 SHAH ALAM']));
    const joined = extractSupplierHeader(textRows(['GARDENIA BAKERIES (KL) SDN BHD', 'LOT 3, JALAN PELABUR 23/1,', '40300 SHAH ALAM']));
    expect(split.name!.confidence).toBeCloseTo(joined.name!.confidence * 0.9, 1);
    // A letter joined to a word by "&" is a name's own ("A & W", "B & BEST"), not a piece split off a word.
    const ampersand = extractSupplierHeader(textRows(['B & BEST RESTAURANT SDN BHD', 'NO.53, JALAN SAGU 18,', '81100 JOHOR BAHRU']));
    const plain = extractSupplierHeader(textRows(['BEST RESTAURANT SDN BHD', 'NO.53, JALAN SAGU 18,', '81100 JOHOR BAHRU']));
    expect(ampersand.name!.confidence).toBeCloseTo(plain.name!.confidence, 1);
    // A document's own text prints its letters as they are: no doubt there.
    const asPrinted = (name: string) => extractSupplierHeader(textRows([name, 'NO.53, JALAN SAGU 18,', '81100 JOHOR BAHRU']), { repairMisreadings: false }).name!.confidence;
    expect(asPrinted('A & W RESTAURANT SDN BHD')).toBeCloseTo(asPrinted('AW RESTAURANT SDN BHD'), 1);
  });

  it('is as sure of a name opening with its kind of business as of one with a legal form', () => {
    // The phone between the name and its address: nothing else says whose name it is.
    const address = ['TEL: 03-4021 5566', 'NO 290, JALAN AIR PANAS,', '53200 KUALA LUMPUR'];
    const confidence = (name: string) => extractSupplierHeader(textRows([name, ...address])).name!.confidence;
    const legal = confidence('GIN KEE TRADING SDN BHD');
    expect(confidence('SYARIKAT PERNIAGAAN GIN KEE')).toBeCloseTo(legal, 1);
    expect(confidence('Restoran Wan Sheng')).toBeCloseTo(legal, 1);
    expect(confidence('KEDAI PAPAN YEW CHUAN')).toBeCloseTo(legal, 1);
    expect(confidence('WAN SHENG CAFE')).toBeCloseTo(legal * 0.8, 1);
    // The line with the legal form is still the seller's name.
    const both = extractSupplierHeader(textRows(['RESTORAN WAN SHENG', 'WAN SHENG FOOD SDN BHD', ...address]));
    expect(both.name?.value).toBe('WAN SHENG FOOD SDN BHD');
  });

  it('is as sure of a name printed with its registration number as of one with a legal form', () => {
    const address = ['TEL: 03-3271 9872', 'NO. 53, JALAN BESAR, 45600 BATANG BERJUNTAI', 'SELANGOR DARUL EHSAN'];
    const confidence = (...top: string[]) => extractSupplierHeader(textRows([...top, ...address])).name!.confidence;
    const legal = confidence('TEO HENG STATIONERY SDN BHD');
    const bare = confidence('TEO HENG STATIONERY & BOOKS');
    expect(bare).toBeCloseTo(legal * 0.8, 1);
    // The number on the line under the name, bracketed or labelled, or after the name on its line.
    expect(confidence('TEO HENG STATIONERY & BOOKS', '(001451637-M)')).toBeCloseTo(legal, 1);
    expect(confidence('TEO HENG STATIONERY & BOOKS', 'COMPANY NO :256628-W')).toBeCloseTo(legal, 1);
    expect(confidence('TEO HENG STATIONERY & BOOKS (1451637-M)')).toBeCloseTo(legal, 1);
    // A number with no check letter is a phone's or a tax number, not the register's.
    expect(confidence('TEO HENG STATIONERY & BOOKS', '(0332719872)')).toBeCloseTo(bare, 1);
    expect(confidence('TEO HENG STATIONERY & BOOKS', 'GST NO. : 001800839168')).toBeCloseTo(bare, 1);
  });

  it('is as sure of a name right over its address as of one with a legal form', () => {
    const address = ['NO 290, JALAN AIR PANAS,', '53200 KUALA LUMPUR'];
    const confidence = (...lines: string[]) => extractSupplierHeader(textRows(lines)).name!.confidence;
    const legal = confidence('GIN KEE TRADING SDN BHD', ...address);
    // The letterhead's layout: the name, and under it the address to its postcode.
    expect(confidence('WAN SHENG CAFE', ...address)).toBeCloseTo(legal, 1);
    // A line between them may be the name's own, a branch or a slogan.
    expect(confidence('WAN SHENG CAFE', 'TEL: 03-4021 5566', ...address)).toBeCloseTo(legal * 0.8, 1);
    // An address of one line, or with no postcode, is too little to go by.
    expect(confidence('WAN SHENG CAFE', 'NO 290, JALAN AIR PANAS, 53200 KUALA LUMPUR', 'TEL: 03-4021 5566')).toBeCloseTo(legal * 0.8, 1);
    expect(confidence('WAN SHENG CAFE', 'NO 290, JALAN AIR PANAS,', 'SETAPAK, KUALA LUMPUR')).toBeCloseTo(legal * 0.8, 1);
  });

  it('is less sure of a name whose last line ends on "&" with nothing found to go on with', () => {
    const address = ['NO.113G & 115G, JALAN SETIA GEMBILANG,', '40170 SETIA ALAM, SELANGOR.'];
    const cut = extractSupplierHeader(textRows(['HOME MASTER HARDWARE &', ...address]));
    const whole = extractSupplierHeader(textRows(['HOME MASTER HARDWARE', ...address]));
    expect(cut.name?.value).toBe('HOME MASTER HARDWARE');
    expect(cut.name!.confidence).toBeCloseTo(whole.name!.confidence * 0.9, 1);
    // Its second line found, the name is whole.
    const both = extractSupplierHeader(textRows(['HOME MASTER HARDWARE &', 'ELECTRICAL SDN BHD', ...address]));
    expect(both.name?.value).toBe('HOME MASTER HARDWARE & ELECTRICAL SDN BHD');
    expect(both.name!.confidence).toBeCloseTo(whole.name!.confidence, 1);
  });

  it('is less sure of a name with a brand above it, not with a document title above it', () => {
    const address = ['NO. 31G, JALAN SETIA INDAH X', '40170 SETIA ALAM'];
    const alone = extractSupplierHeader(textRows(['SIN THYE & COMPANY', ...address]));
    const titled = extractSupplierHeader(textRows(['SIMPLIFIED TAX INVOICE', 'SIN THYE & COMPANY', ...address]));
    const cashSale = extractSupplierHeader(textRows(['Cash Sale', 'SIN THYE & COMPANY', ...address]));
    const branded = extractSupplierHeader(textRows(['tealive', 'SIN THYE & COMPANY', ...address]));
    expect([titled.name?.value, cashSale.name?.value, branded.name?.value]).toEqual(Array(3).fill('SIN THYE & COMPANY'));
    expect(titled.name!.confidence).toBeCloseTo(alone.name!.confidence, 1);
    expect(cashSale.name!.confidence).toBeCloseTo(alone.name!.confidence, 1);
    expect(branded.name!.confidence).toBeCloseTo(alone.name!.confidence * 0.9, 1);
  });

  it('is as sure of a name under a logo that spells only its own words as of the name alone', () => {
    const name = ['ELKEN SERVICE SDN BHD', 'NO 2-1 JALAN 3/137B BATU 5', '58000 KUALA LUMPUR'];
    const alone = extractSupplierHeader(textRows(name));
    const logo = extractSupplierHeader(textRows(['ELKEN', 'SERVICE', ...name]));
    const brand = extractSupplierHeader(textRows(['ELKEN', 'EXPRESS', ...name]));
    expect([logo.name?.value, brand.name?.value]).toEqual(['ELKEN SERVICE SDN BHD', 'ELKEN SERVICE SDN BHD']);
    expect(logo.name!.confidence).toBeCloseTo(alone.name!.confidence, 1);
    expect(brand.name!.confidence).toBeCloseTo(alone.name!.confidence * 0.9, 1);
  });

  it('is as sure of a name under a logo of its own words read with slips as of the name alone, not under another name', () => {
    const name = ['BENS INDEPENDENT GROCER SDN. BHD', 'LOT 6, JALAN BATAI,', 'DAMANSARA HEIGHTS'];
    const alone = extractSupplierHeader(textRows(name));
    const misread = extractSupplierHeader(textRows(['Bers Indepeneeat Gracer', ...name]));
    const extraLetter = extractSupplierHeader(textRows(['TELKEN', 'ELKEN SERVICE SDN BHD', 'NO 2-1 JALAN 3/137B BATU 5']));
    const elken = extractSupplierHeader(textRows(['ELKEN SERVICE SDN BHD', 'NO 2-1 JALAN 3/137B BATU 5']));
    // A word two slips from a word of under eight letters is another word.
    const other = extractSupplierHeader(textRows(['HENG INDEPENDENT', ...name]));
    const brand = extractSupplierHeader(textRows(['Bears Independent Grill', ...name]));
    expect([misread, extraLetter, other, brand].map((h) => h.name?.value)).toEqual([
      'BENS INDEPENDENT GROCER SDN. BHD',
      'ELKEN SERVICE SDN BHD',
      'BENS INDEPENDENT GROCER SDN. BHD',
      'BENS INDEPENDENT GROCER SDN. BHD',
    ]);
    expect(misread.name!.confidence).toBeCloseTo(alone.name!.confidence, 1);
    expect(extraLetter.name!.confidence).toBeCloseTo(elken.name!.confidence, 1);
    expect(other.name!.confidence).toBeCloseTo(alone.name!.confidence * 0.9, 1);
    expect(brand.name!.confidence).toBeCloseTo(alone.name!.confidence * 0.9, 1);
  });

  it("is as sure of a name under a bookkeeper's stamp as of the name alone, and takes no stamp for a name", () => {
    const address = ['NO.49, JALAN DINAR G U3/G,', '40150 SHAH ALAM, SELANGOR'];
    const alone = extractSupplierHeader(textRows(['BEMED (SP) SDN. BHD.', ...address]));
    const stamped = extractSupplierHeader(textRows(['POSTED', 'BEMED (SP) SDN. BHD.', ...address]));
    expect(stamped.name?.value).toBe('BEMED (SP) SDN. BHD.');
    expect(stamped.name!.confidence).toBeCloseTo(alone.name!.confidence, 1);
    expect(extractSupplierHeader(textRows(['POSTED', 'KEDAI RUNCIT', ...address])).name?.value).toBe('KEDAI RUNCIT');
  });

  it('is less sure of the name where the letterhead also names who owns the shop, not where a footnote under the address does', () => {
    const address = ['NO. 31G, JALAN SETIA INDAH X', '40170 SETIA ALAM'];
    const alone = extractSupplierHeader(textRows(['SANYU STATIONERY SHOP', ...address]));
    // An owner's line between the name and its address, against a phone's line there.
    const phone = extractSupplierHeader(textRows(['SANYU STATIONERY SHOP', 'TEL: 03-1234 5678', ...address]));
    const owned = extractSupplierHeader(textRows(['SANYU STATIONERY SHOP', 'Owned By: SANYU SUPPLY', ...address]));
    expect(owned.name?.value).toBe(alone.name?.value);
    expect(owned.name!.confidence).toBeCloseTo(phone.name!.confidence * 0.9, 1);
    const footnote = extractSupplierHeader(
      textRows(['SANYU STATIONERY SHOP', ...address, 'TEL: +603-3362 4137', 'GST ID NO: 001531760640', 'OWNED BY :', 'SANYU SUPPLY SDN BHD (1135772-K)']),
    );
    expect(footnote.name?.value).toBe(alone.name?.value);
    expect(footnote.name!.confidence).toBeCloseTo(alone.name!.confidence, 1);
  });

  it('is less sure of a brand whose company, with its legal form, is printed right under it, however the owner words read', () => {
    const rest = ['(1219716-T)', 'PARADIGM MALL', 'LOT NO.: 4F-27 & 4FK-38, 4TH FLOOR', 'TEL : 03-1234 5678'];
    const alone = extractSupplierHeader(textRows(['AMPHAWA THAI TEA & CO.', ...rest]));
    const owned = extractSupplierHeader(textRows(['AMPHAWA THAI TEA & CO.', 'Dimili oleh T PLUS F&B SDN. BHD.', ...rest]));
    expect(owned.name?.value).toBe(alone.name?.value);
    expect(owned.name!.confidence).toBeCloseTo(alone.name!.confidence * 0.9, 1);
    // A buyer or a distributor further down the top is no second seller.
    const buyer = extractSupplierHeader(textRows(['AMPHAWA THAI TEA & CO.', ...rest, 'BILL TO: SYARIKAT PERNIAGAAN ABC SDN BHD']));
    expect(buyer.name!.confidence).toBeCloseTo(alone.name!.confidence, 1);
  });

  it('is less sure of a name read with its first word in small letters before capitalised ones', () => {
    const address = ['Level 6, Bangunan TH, Damansara Uptown3', '47400 Petaling Jaya Selangor'];
    const name = (line: string, exactText = false) => extractSupplierHeader(textRows([line, ...address]), { repairMisreadings: !exactText }).name!;
    expect(name('ng Alaf Restaurants Sdn Bhd').value).toBe('ng Alaf Restaurants Sdn Bhd');
    expect(name('ng Alaf Restaurants Sdn Bhd').confidence).toBeCloseTo(name('Gerbang Alaf Restaurants Sdn Bhd').confidence * 0.9, 1);
    // A name printed in small letters throughout is as printed; so is exact text.
    expect(name('tealive').confidence).toBeCloseTo(name('TEALIVE').confidence, 1);
    expect(name('ng Alaf Restaurants Sdn Bhd', true).confidence).toBeCloseTo(name('Gerbang Alaf Restaurants Sdn Bhd', true).confidence, 1);
  });

  it('is less sure of a name whose initials lost their last full stop', () => {
    const address = ['LOT 1851-A & 1851-B, JALAN KPB 6,', '43300 SERI KEMBANGAN, SELANGOR'];
    const dotted = extractSupplierHeader(textRows(['MR. D.I.Y. (M) SDN BHD', ...address]));
    const lost = extractSupplierHeader(textRows(['MR. D.I.T (M) SDN BHD', ...address]));
    expect(lost.name?.value).toBe('MR. D.I.T (M) SDN BHD');
    expect(lost.name!.confidence).toBeCloseTo(dotted.name!.confidence * 0.9, 1);
  });

  it('is no surer of a name than its least sure word allows', () => {
    const header = (weak: number) => {
      const rows = textRows(['MR. D.I.T. (M) SDN BHD', 'LOT 1851-A & 1851-B, JALAN KPB 6,', '43300 SERI KEMBANGAN, SELANGOR']);
      for (const w of rows[0]!.words) w.confidence = w.text === 'D.I.T.' ? weak : 99;
      return extractSupplierHeader(rows).name!;
    };
    // One word at 78.5 among five at 99: the mean (95) would pass the ready rule's 90.
    expect(header(78.5).confidence).toBeCloseTo(88.5, 1);
    expect(header(95).confidence).toBeGreaterThan(98);
  });

  it('is as sure of a name that a line under it calls a licensee, or a former name, as of the name alone', () => {
    const address = ['LEVEL 6, BANGUNAN TH, DAMANSARA UPTOWN3', '47400 PETALING JAYA SELANGOR'];
    const alone = extractSupplierHeader(textRows(['GERBANG ALAF RESTAURANTS SDN BHD', '(65351-M)', ...address]));
    const licensee = extractSupplierHeader(textRows(['GERBANG ALAF RESTAURANTS SDN BHD', '(65351-M)', 'LICENSEE OF MCDONALD\'S', ...address]));
    const formerly = extractSupplierHeader(
      textRows(['GERBANG ALAF RESTAURANTS SDN BHD', '(65351-M)', 'FORMERLY KNOWN AS', 'GOLDEN ARCHES RESTAURANTS SDN BHD', 'LICENSEE OF MCDONALD\'S', ...address]),
    );
    expect([licensee.name?.value, formerly.name?.value]).toEqual(Array(2).fill('GERBANG ALAF RESTAURANTS SDN BHD'));
    expect(licensee.name!.confidence).toBeCloseTo(alone.name!.confidence, 1);
    expect(formerly.name!.confidence).toBeCloseTo(alone.name!.confidence, 1);
    // Above the name such a line says what a brand above is: which of the two the books know is a choice.
    const above = extractSupplierHeader(textRows(['A MEMBER OF THE ABC GROUP', 'GERBANG ALAF RESTAURANTS SDN BHD', '(65351-M)', ...address]));
    expect(above.name!.confidence).toBeLessThan(alone.name!.confidence * 0.95);
  });

  it("opens the address with the mall or building named right above its first line, below the seller's other lines", () => {
    const header = extractSupplierHeader(
      textRows(['AMPHAWA THAI TEA & CO.', 'DIMILIKI OLEH T PLUS F&B SDN. BHD.', '(1219716-T)', 'PARADIGM MALL', 'LOT NO.: 4F-27 & 4FK-38, 4TH FLOOR', 'TEL : 03-1234 5678']),
    );
    expect(header.address?.value).toBe('PARADIGM MALL LOT NO.: 4F-27 & 4FK-38, 4TH FLOOR');
  });

  it('ends the address at a line that shares none of its alignments', () => {
    // Centred lines of different widths are one address; the first item starts at the left margin right under it.
    const centred = textRows([
      '          PERNIAGAAN RIANG RIA',
      '             TAX INVOICE',
      '      NO 7, JALAN UERO 3/2,',
      ' SEKSYEN 9, BANDAR MAHKOTA CHERAS,',
      '        40000 SHAH ALAM.',
      '27" T.S BASIN BESAR',
      '400002  1.00 X 21.32  21.32',
    ]);
    expect(extractSupplierHeader(centred).address?.value).toBe('NO 7, JALAN UERO 3/2, SEKSYEN 9, BANDAR MAHKOTA CHERAS, 40000 SHAH ALAM.');
    // Left-aligned lines go on.
    const left = textRows(['GIN KEE TRADING SDN BHD', 'NO 290, JALAN AIR PANAS,', 'SETAPAK, 53200 KUALA LUMPUR', 'MALAYSIA', 'TEL: 03-40210276']);
    expect(extractSupplierHeader(left).address?.value).toBe('NO 290, JALAN AIR PANAS, SETAPAK, 53200 KUALA LUMPUR MALAYSIA');
  });

  it('passes over a speck read as a line of one character between two address lines', () => {
    const rows = textRows(['RESTORAN WAN SHENG', 'No.2, Jalan Temenggung 19/9,', 'Seksyen 9, Bandar Mahkota Cheras,', '43200 Cheras, Selangor', 'GST REG NO: 001335787520']);
    // The speck stands between the lines, right of the name's column, a fraction of a line high.
    const speck = textRows(['L'])[0]!;
    const below = rows[1]!.box;
    rows.splice(2, 0, { ...speck, box: { left: 0.9, top: below.top + below.height, width: 0.005, height: 0.005 } });
    expect(extractSupplierHeader(rows).address?.value).toBe('No.2, Jalan Temenggung 19/9, Seksyen 9, Bandar Mahkota Cheras, 43200 Cheras, Selangor');
  });

  it("ends the address at the state or the country, going on only with a place's line", () => {
    const dealer = extractSupplierHeader(
      textRows(['BHPETROL SUBANG AIRPORT', 'JALAN LAPANGAN TERBANG SUBANG', '47200 SUBANG', 'SELANGOR', "D'ROSH SERVPORT", 'CO. REG. NO: 000948487-V']),
    );
    expect(dealer.address?.value).toBe('JALAN LAPANGAN TERBANG SUBANG 47200 SUBANG SELANGOR');
    // A mall the branch stands in, and a state's honorific read run together, are lines of the address.
    const mall = extractSupplierHeader(
      textRows(['RESTORAN ABC', 'NO 8, JALAN 7/118B, DESA TUN RAZAK', '56000 KUALA LUMPUR, MALAYSIA', 'KL FESTIVAL CITY MALL', 'TEL: 03-91321234']),
    );
    expect(mall.address?.value).toBe('NO 8, JALAN 7/118B, DESA TUN RAZAK 56000 KUALA LUMPUR, MALAYSIA KL FESTIVAL CITY MALL');
    const honorific = extractSupplierHeader(textRows(['LIAN HING STATIONERY SDN BHD', 'TAMAN SERDANG RAYA,', '43300 SERI KEMBANGAN, SELANGOR', 'DARULEHSAN', 'GST ID : 002139201536']));
    expect(honorific.address?.value).toBe('TAMAN SERDANG RAYA, 43300 SERI KEMBANGAN, SELANGOR DARUL EHSAN');
  });

  it('passes over a branch named in brackets under the name to the address below the registration lines', () => {
    const header = extractSupplierHeader(
      textRows(['DE LUXE CIRCLE FRESH MART SDN BHD', '(MUTIARA RINI 16)', 'CO REG NO:797887-W', 'GST NO:001507647488', 'NO.89&91, JALAN UTAMA,', 'TAMAN MUTIA RINI, 81300 SKUDAI, JOHOR.', 'TEL:016-7780546']),
    );
    expect(header.address?.value).toBe('NO.89&91, JALAN UTAMA, TAMAN MUTIA RINI, 81300 SKUDAI, JOHOR.');
  });

  it('starts the address at a basement line, as at a floor or level line', () => {
    const header = extractSupplierHeader(
      textRows(['Sanjung Realiti Sdn. Bhd. (779763-K)', '(GST Registration No.: 001751072768)', 'Car Park Office, Basement 1,', 'Jalan SS21/39, PJU6A,', '47400 Petaling Jaya, Selangor', 'Tel.: +603 7726 2929']),
    );
    expect(header.address?.value).toBe('Car Park Office, Basement 1, Jalan SS21/39, PJU6A, 47400 Petaling Jaya, Selangor');
  });

  it('ends the address at a phone label run into its number, and not at a place word that starts like one', () => {
    const header = extractSupplierHeader(textRows(['SIN THYE & COMPANY', 'NO 12 JALAN BESAR', '43000 KAJANG, SELANGOR', 'TEL027010 AX']));
    expect(header.address?.value).toBe('NO 12 JALAN BESAR 43000 KAJANG, SELANGOR');
    const teluk = extractSupplierHeader(textRows(['SIN THYE & COMPANY', 'NO 12 JALAN BESAR', 'TELUK PANGLIMA GARANG', '42500 KUALA LANGAT']));
    expect(teluk.address?.value).toBe('NO 12 JALAN BESAR TELUK PANGLIMA GARANG 42500 KUALA LANGAT');
    // A restaurant's bill title below the address, as short as a branch line.
    const bill = extractSupplierHeader(textRows(['GENTING RESTAURANT SDN BHD', 'Lot 50, Floor T2, Sky Avenue', '69000 Pahang Malaysia', 'Guest Check', 'Table 12']));
    expect(bill.address?.value).toBe('Lot 50, Floor T2, Sky Avenue 69000 Pahang Malaysia');
  });
});

describe('a name read as a line known from other receipts', () => {
  const address = ['LOT P.T. 2811, JALAN ANGSA,', 'TAMAN BERKELEY 41150 KLANG, SELANGOR'];
  const rows = (lines: string[], weak: string, at: number) => rowsReading(lines, weak, at);
  const known = new Map(['99 SPEED MART S/B', '99 SPEED MART S/B (519537-X)', 'MR. D.I.Y. (M) SDN BHD'].map((l) => [printedLineKey(l), 2]));

  it('counts the words the reading was unsure of as read, where every line of the name is a known line', () => {
    const lines = ['99 SPEED MART S/B', ...address];
    const doubted = extractSupplierHeader(rows(lines, 'S/B', 63)).name!;
    const corroborated = extractSupplierHeader(rows(lines, 'S/B', 63), { knownLines: known }).name!;
    expect(doubted.value).toBe('99 SPEED MART S/B');
    expect(doubted.confidence).toBeLessThan(80);
    expect(corroborated.value).toBe('99 SPEED MART S/B');
    expect(corroborated.confidence).toBe(97);
    // Spacing and case are no difference: the line is looked up as upper case, spaces collapsed.
    expect(extractSupplierHeader(rows(['99 Speed  Mart S/B', ...address], 'S/B', 63), { knownLines: known }).name!.confidence).toBe(97);
  });

  it('leaves a name that reads otherwise than every known line as doubted as its weakest word', () => {
    const misread = rows(['99 SPEED MART 5/B', ...address], '5/B', 63);
    expect(extractSupplierHeader(misread, { knownLines: known }).name!.confidence).toBe(extractSupplierHeader(misread).name!.confidence);
    // A name over two lines is known only when both are.
    const twoLines = rows(['99 SPEED MART', 'TRADING S/B', ...address], 'S/B', 63);
    expect(extractSupplierHeader(twoLines).name!.value).toBe('99 SPEED MART TRADING S/B');
    expect(extractSupplierHeader(twoLines, { knownLines: new Map([...known, ['99 SPEED MART', 2]]) }).name!.confidence).toBe(extractSupplierHeader(twoLines).name!.confidence);
  });

  it('keeps every doubt of the layout on a known name', () => {
    // A line above the name leaves whose name it is open, known or not: under the ready rule's 90 either way.
    const above = rows(['TAN WOON YANN', '', '99 SPEED MART S/B', ...address], 'S/B', 63);
    expect(extractSupplierHeader(above).name!.value).toBe('99 SPEED MART S/B');
    expect(extractSupplierHeader(above, { knownLines: known }).name!.confidence).toBeCloseTo(97 * NAME_DOUBT, 1);
    expect(97 * NAME_DOUBT).toBeLessThan(90);
  });

  it('puts right a name read one letter away from a known line, in the case the name prints', () => {
    const lines = new Map([
      ['TEO HENG STATIONERY & BOOKS', 5],
      ['TED HENG STATIONERY & BOOKS', 2],
      ['GERBANG ALAF RESTAURANTS SDN BHD', 3],
      ['LIAN HING STATIONERY SDN BHD', 2],
      ['SUPER.SEVEN CASH & CARRY SDN BHD', 2],
      ['GL HANDICRAFT & TAIL ORING', 2],
      ['TIME', 9],
    ]);
    expect(nearestKnownLine('Derbang Alaf Restaurants Sdn Bhd', lines)).toBe('Gerbang Alaf Restaurants Sdn Bhd');
    expect(nearestKnownLine('LAN HING STATIONERY SDN BHD', lines)).toBe('LIAN HING STATIONERY SDN BHD');
    expect(nearestKnownLine('LIAN HINGG STATIONERY SDN BHD', lines)).toBe('LIAN HING STATIONERY SDN BHD');
    // The line seen most often of those one letter away; none where two are seen alike.
    expect(nearestKnownLine('TEA HENG STATIONERY & BOOKS', lines)).toBe('TEO HENG STATIONERY & BOOKS');
    expect(nearestKnownLine('TEA HENG STATIONERY & BOOKS', new Map([...lines, ['TED HENG STATIONERY & BOOKS', 5]]))).toBeUndefined();
    // A known line as read stays, even where another is seen more often one letter away.
    expect(nearestKnownLine('TED HENG STATIONERY & BOOKS', lines)).toBeUndefined();
    // A space or a mark is no misread letter; a short name is too little to go by; two letters are too many.
    expect(nearestKnownLine('SUPER SEVEN CASH & CARRY SDN BHD', lines)).toBeUndefined();
    expect(nearestKnownLine('GL HANDICRAFT & TAILORING', lines)).toBeUndefined();
    expect(nearestKnownLine('TIE', lines)).toBeUndefined();
    expect(nearestKnownLine('LAN HONG STATIONERY SDN BHD', lines)).toBeUndefined();
    // A digit read for a letter is put right; a digit against another is another branch.
    expect(nearestKnownLine('8 & BEST RESTAURANT', new Map([['B & BEST RESTAURANT', 2]]))).toBe('B & BEST RESTAURANT');
    expect(nearestKnownLine('SHELL STATION KEPONG 12', new Map([['SHELL STATION KEPONG 13', 2]]))).toBeUndefined();
    // A word read with high confidence is printed so: another seller's name.
    expect(nearestKnownLine('LAN HING STATIONERY SDN BHD', lines, new Set(['LAN']))).toBeUndefined();
    expect(nearestKnownLine('LAN HING STATIONERY SDN BHD', lines, new Set(['HING']))).toBe('LIAN HING STATIONERY SDN BHD');
  });

  it("puts right a name's first word misread or cut short where its other words are one known line's", () => {
    const lines = new Map([
      ['GERBANG ALAF RESTAURANTS SDN BHD', 3],
      ['LIAN HING STATIONERY SDN BHD', 2],
      ['ABC HARDWARE TRADING SDN BHD', 2],
      ['XYZ HARDWARE TRADING SDN BHD', 2],
      ['AIK TRADING SDN BHD', 2],
    ]);
    expect(knownFirstWord('ng Alaf Restaurants Sdn Bhd', lines)).toBe('Gerbang Alaf Restaurants Sdn Bhd');
    expect(knownFirstWord('embang Alaf Restaurants Sdn Bhd', lines)).toBe('Gerbang Alaf Restaurants Sdn Bhd');
    expect(knownFirstWord('UAN HING STATIONERY SDN BHD', lines)).toBe('LIAN HING STATIONERY SDN BHD');
    // Three letters off is another word; a sure first word is printed so.
    expect(knownFirstWord('Orang Alaf Restaurants Sdn Bhd', lines)).toBeUndefined();
    expect(knownFirstWord('UAN HING STATIONERY SDN BHD', lines, new Set(['UAN']))).toBeUndefined();
    // Two known lines share the rest; a short rest is many sellers'; the words must be as many.
    expect(knownFirstWord('ABX HARDWARE TRADING SDN BHD', lines)).toBeUndefined();
    expect(knownFirstWord('AIX TRADING SDN BHD', lines)).toBeUndefined();
    expect(knownFirstWord('UAN HING STATIONERY SDN BHD KL', lines)).toBeUndefined();
    // As read where it is a known line.
    expect(knownFirstWord('LIAN HING STATIONERY SDN BHD', lines)).toBeUndefined();
    // The header puts it right and doubts it.
    const doc = textDocument(['UAN HING STATIONERY SDN BHD', 'NO.32 & 33, JALAN SR 1/9,', '43300 SERI KEMBANGAN']);
    const name = extractSupplierHeader(documentRows(doc), { knownLines: lines }).name!;
    expect(name.value).toBe('LIAN HING STATIONERY SDN BHD');
    expect(name.confidence).toBeCloseTo(extractSupplierHeader(documentRows(textDocument(['LIAN HING STATIONERY SDN BHD', 'NO.32 & 33, JALAN SR 1/9,', '43300 SERI KEMBANGAN']))).name!.confidence * NAME_DOUBT, 1);
  });

  it('doubts a name it put right to a known line, as any repair', () => {
    const lines = ['TED HENG STATIONERY & BOOKS', ...address];
    const read = extractSupplierHeader(rows(lines, 'TED', 80), { knownLines: new Map([['TEO HENG STATIONERY & BOOKS', 5]]) }).name!;
    const printed = extractSupplierHeader(rows(['TEO HENG STATIONERY & BOOKS', ...address], 'TEO', 80)).name!;
    expect(read.value).toBe('TEO HENG STATIONERY & BOOKS');
    expect(read.confidence).toBeCloseTo(printed.confidence * NAME_DOUBT, 1);
  });

  it('is an option of the whole extraction, for readings of images', () => {
    const doc = textDocument(['99 SPEED MART S/B (519537-X)', ...address]);
    for (const w of doc.pages[0]!.lines[0]!.words) if (w.text === 'S/B') w.confidence = 63;
    expect(extractDocument(doc).fields.supplier_name!.confidence).toBeLessThan(90);
    expect(extractDocument(doc, { knownLines: known }).fields.supplier_name).toMatchObject({ value: '99 SPEED MART S/B', confidence: 97 });
  });
});

describe('repairs of misread names', () => {
  it("are made on OCR's readings only, not on a document's own text", () => {
    const header = textDocument(['SFEED NART SDN BHD', 'NO 5 JALAN SS 2/1', '47300 PETALING JAYA']);
    expect(extractDocument(header).fields.supplier_name?.value).toBe('SPEED MART SDN BHD');
    expect(extractDocument({ ...header, source: 'pdf-text' }).fields.supplier_name?.value).toBe('SFEED NART SDN BHD');
    expect(extractDocument({ ...header, source: 'office' }).fields.supplier_name?.value).toBe('SFEED NART SDN BHD');

    // Words read with high confidence are what is printed.
    const sure = { ...header, pages: header.pages.map((p) => ({ ...p, lines: p.lines.map((l) => ({ ...l, words: l.words.map((w) => ({ ...w, confidence: 99 })) })) })) };
    expect(extractDocument(sure).fields.supplier_name?.value).toBe('SFEED NART SDN BHD');

    // Spacing and legal forms too: "SDN 8HD" may be printed so.
    const spaced = textDocument(['SFEED(KL)SDN 8HD', 'NO 5 JALAN SS 2/1', '47300 PETALING JAYA']);
    expect(extractDocument(spaced).fields.supplier_name?.value).toBe('SPEED (KL) SDN BHD');
    expect(extractDocument({ ...spaced, source: 'pdf-text' }).fields.supplier_name?.value).toBe('SFEED(KL)SDN 8HD');

    const parties = textDocument(['INVOICE No. 12', 'Seller: AE0N NART UAB', 'Buyer: UAB Pirkejas']);
    expect(extractDocument(parties).fields.supplier_name?.value).toBe('AEON MART UAB');
    expect(extractDocument({ ...parties, source: 'pdf-text' }).fields.supplier_name?.value).toBe('AE0N NART UAB');
  });
});

describe('an address read as an address known from other receipts', () => {
  const known = new Map([
    ['NO.2, JALAN TEMENGGUNG 19/9, SEKSYEN 9, BANDAR MAHKOTA CHERAS, 43200 CHERAS, SELANGOR', 3],
    ['LOT 3, JALAN PELABUR 23/1, 40300 SHAH ALAM, SELANGOR.', 4],
    ['NO. 1, TAMAN SRI DENGKIL, JALAN AIR HITAM 43800 DENGKIL, SELANGOR.', 5],
    ['NO.1, TAMAN SRI DENGKIL, JALAN AIR HITAM 43800 DENGKIL, SELANGOR.', 4],
    ['12, JALAN TAMPOI 7/4,KAWASAN PERINDUSTRIAN TAMPOI,81200 JOHOR BAHRU,JOHOR', 26],
    ['12, JALAN TAMPOI 7/4,KAWASAN PERINDUSTRIAN TAMPOI,81200 JOHOR BAHRU, JOHOR', 2],
    ['NO 3, JALAN 1', 9],
  ]);

  it('takes the known spaces and marks, keeping the letters and their case as read', () => {
    expect(knownSpelling('No. 2, Jalan Temenggung 19/9, Seksyen 9, Bandar Mahkota Cheras, 43200 Cheras, Selangor', known)).toBe(
      'No.2, Jalan Temenggung 19/9, Seksyen 9, Bandar Mahkota Cheras, 43200 Cheras, Selangor',
    );
    // A lost slash or comma is a mark too.
    expect(knownSpelling('Lot 3, Jalan Pelabur 231 40300 Shah Alam, Selangor.', known)).toBe('Lot 3, Jalan Pelabur 23/1, 40300 Shah Alam, Selangor.');
    // The spelling seen at least twice as often as any other.
    expect(knownSpelling('12, Jalan Tampoi 7/4,Kawasan Perindustrian Tampoi,81200 Johor Bahru, Johor', known)).toBe(
      '12, Jalan Tampoi 7/4,Kawasan Perindustrian Tampoi,81200 Johor Bahru,Johor',
    );
  });

  it('leaves an address as read where the known spellings disagree, a letter or digit differs, or it is short', () => {
    expect(knownSpelling('NO.1, TAMAN SRI DENGKIL, JALAN AIR HITAM 43800 DENGKIL, SELANGOR.', known)).toBeUndefined();
    expect(knownSpelling('NO.2, JALAN TEMENGGUNG 19/9, SEKSYEN 9, BANDAR MAHKOTA CHERAS, 43300 CHERAS, SELANGOR', known)).toBeUndefined();
    expect(knownSpelling('NO.2, JALAN TEMENGGUNG 19/9, SEKSYEN 9, BANDAR MAHKOTA CHERAS, 43200 CHERAS SELANGOR X', known)).toBeUndefined();
    expect(knownSpelling('NO 3,JALAN 1', known)).toBeUndefined();
    // Already spelt so: nothing to change.
    expect(knownSpelling('LOT 3, JALAN PELABUR 23/1, 40300 SHAH ALAM, SELANGOR.', known)).toBeUndefined();
  });

  it("writes the seller's address so in the extraction of a reading", () => {
    const lines = ['GARDENIA BAKERIES (KL) SDN BHD', 'Lot 3, Jalan Pelabur 231', '40300 Shah Alam, Selangor.', 'Tel: 03-55423228'];
    expect(extractSupplierHeader(textRows(lines)).address!.value).toBe('Lot 3, Jalan Pelabur 231 40300 Shah Alam, Selangor.');
    expect(extractSupplierHeader(textRows(lines), { knownLines: known }).address!.value).toBe('Lot 3, Jalan Pelabur 23/1, 40300 Shah Alam, Selangor.');
    const doc = textDocument(lines);
    expect(extractDocument(doc, { knownLines: known }).fields.supplier_address?.value).toBe('Lot 3, Jalan Pelabur 23/1, 40300 Shah Alam, Selangor.');
  });
});

describe("a name's confidence", () => {
  const rows = (lines: string[], weak: string, at: number) => rowsReading(lines, weak, at, 100);
  const address = ['5-7, JALAN MAHAGONI 7/1', 'SEKSYEN 4, BANDAR UTAMA, 44300'];

  it('leaves out a speck read as a character between two words of the name', () => {
    const name = extractSupplierHeader(rows(['SWC ENTERPRISE SDN 1 BHD', ...address], '1', 3.4)).name!;
    expect(name.value).toBe('SWC ENTERPRISE SDN BHD');
    // Dropping it is a repair, doubted as one; its own confidence no longer counts.
    expect(name.confidence).toBeCloseTo(100 * NAME_DOUBT, 1);
  });

  it('counts a character the name holds in its place, put right or not, and one after the name', () => {
    const known = new Map([['B & BEST RESTAURANT', 2]]);
    const repaired = extractSupplierHeader(rows(['8 & BEST RESTAURANT', ...address], '8', 80), { knownLines: known }).name!;
    expect(repaired.value).toBe('B & BEST RESTAURANT');
    expect(repaired.confidence).toBeLessThan(90);
    const after = extractSupplierHeader(rows(['PERNIAGAAN RIANG RIA 4', ...address], '4', 40)).name!;
    expect(after.value).toBe('PERNIAGAAN RIANG RIA');
    expect(after.confidence).toBeLessThan(60);
  });
});
