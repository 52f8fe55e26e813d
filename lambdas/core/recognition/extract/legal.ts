/** Legal-form suffixes and business words, shared by the supplier extractor and the matcher. */
import { foldDiacritics, levenshtein, oneSlipFrom, repairNameWords } from './text';

/** One-word legal forms (upper case, without dots); two-word ones (SDN BHD, PTE LTD) are handled in `legalFormEnd`. */
const SINGLE_FORMS = new Set([
  'S/B', 'BHD', 'BERHAD', 'LTD', 'LIMITED', 'PLC', 'LLC', 'LLP', 'INC', 'CORP', 'CORPORATION', 'GMBH', 'AG', 'SA', 'SAS',
  'SARL', 'SRL', 'SPA', 'BV', 'NV', 'OY', 'AS', 'ASA', 'APS', 'UAB', 'AB', 'MB', 'II', 'VSI', 'KB', 'TUB', 'SIA', 'OU',
  'ENTERPRISE', 'ENTERPRISES', 'TRADING', 'COMPANY', 'CO',
]);

/** Words that make a line look like a business name even without a legal form. */
export const BUSINESS_WORDS = new Set(
  (
    'RESTAURANT RESTAURANTS RESTORAN CAFE BISTRO BAKERY BAKERIES CONFECTIONERY HOUSE PIZZA KITCHEN KITCHENETTE FOOD FOODS ' +
    'STATIONERY BOOK BOOKS BOOKSTORE HARDWARE ELECTRICAL ELECTRONICS MART MINIMART SUPERMARKET HYPERMARKET STORE STORES ' +
    'SHOP KEDAI FARMASI PHARMACY MARKETING HOLDINGS INTERNATIONAL GROUP INDUSTRIES TRADING ENTERPRISE SYARIKAT PERNIAGAAN ' +
    'DISTRIBUTOR DISTRIBUTORS ADVERTISING SERVICE SERVICES STATION PETROL MOTOR AUTO TRAVEL HOTEL NOODLE CAKE TEA COFFEE ' +
    'BAR GRILL DELI MARKET FRESH COMPANY SOLUTIONS SYSTEMS TECHNOLOGY TECHNOLOGIES MEDICAL CLINIC KLINIK OPTICAL PRINTING ' +
    'LOGISTICS CONSTRUCTION REALTY REALITI PARKING TRANSPORT HANDICRAFT HANDICRAFTS BEAUTY HEALTH CENTRE CENTER ' +
    'SEAFOOD ENGINEERING MANUFACTURING SUPPLY SUPPLIES PRODUCTS FURNITURE TEXTILE TEXTILES GARDEN NURSERY FLORIST ' +
    'LAUNDRY SALON BOUTIQUE JEWELLERY FASHION TAILORING GENERAL MERCHANT MERCHANTS AGENCY AGENCIES BROTHERS ' +
    'RESOURCES VENTURES CONCEPT PRINT COMPUTER MOBILE TELECOMMUNICATION ELECTRIC MACHINERY EQUIPMENT TRADERS ' +
    'WHOLESALE RETAIL GROCERY PROVISION CATERING BAKERY BREAD BEVERAGE BEVERAGES CHICKEN NASI MAMAK CORNER ' +
    'SQUARE CITY GLOBAL ASIA MALAYSIA DIGITAL GROCER'
  ).split(' '),
);

/** A letters-only word of the business vocabulary (case and diacritics ignored). */
function vocabularyWord(token: string): boolean {
  const known = (t: string) => BUSINESS_WORDS.has(t) || SINGLE_FORMS.has(t) || t === 'SDN';
  // Plurals and singulars count as known: "TELECOMMUNICATIONS", "GROCER".
  return known(token) || (token.endsWith('S') && known(token.slice(0, -1))) || known(`${token}S`) || known(`${token}Y`);
}

/**
 * Business words the OCR misread by one letter ("CONFECTIUNERY", "HARDUARE", "Heauty") are put right, and
 * business words it ran together are split ("STATIONERYSHOP", "OGNGROUP"). Only clear cases change:
 * a word of at least six letters one edit from exactly one vocabulary word, a run whose parts after a head of
 * three or more letters are all vocabulary words of at least four letters, a first letter split off a
 * vocabulary word ("B AKERIES"). Words keep their case.
 *
 * A run is split only in a name read as one word before its legal form ("SANYUSTATIONERYSHOP",
 * "OGNGROUP SDN BHD"): where the reading lost every word space. Where it spaced the name's other words, a run it
 * left whole is printed whole ("TANJONGMAS BOOKCENTRE (PJ) SDN BHD"): the reading's own word spaces are almost
 * always right (docs/recognition.md, "Local recogniser").
 */
export function correctBusinessWords(name: string): string {
  const tokens = name.split(' ');
  // A first letter split off a word: "B AKERIES".
  for (let i = 0; i < tokens.length - 1; i++) {
    if (/^\p{L}$/u.test(tokens[i]!) && vocabularyWord(foldDiacritics(`${tokens[i]}${tokens[i + 1]}`.toUpperCase()))) {
      tokens.splice(i, 2, `${tokens[i]}${tokens[i + 1]}`);
    }
  }
  const spacesLost = tokens.filter(nameWord).length <= 1;
  return repairNameWords(tokens.join(' '), ({ up, recase }) => {
    if (vocabularyWord(up)) return undefined;
    if (up.length >= 6) {
      const near = [...BUSINESS_WORDS].filter((v) => v.length >= 6 && levenshtein(up, v, 1) <= 1);
      if (near.length === 1) return recase(near[0]!);
    }
    if (!spacesLost) return undefined;
    return splitCompound(up)
      ?.map((part) => recase(part))
      .join(' ');
  });
}

/** A word of a name's own, not its legal form nor a bracketed part ("SDN", "BHD", "(M)", "(KL)"). */
function nameWord(token: string): boolean {
  const t = cleanToken(token);
  return /\p{L}{2}/u.test(t) && t !== 'SDN' && !isLegalFormToken(t, false) && !/^\(.*\)$/.test(token);
}

/** "SANYUSTATIONERYSHOP" → ["SANYU", "STATIONERY", "SHOP"]: a head of three or more letters, then vocabulary words. */
function splitCompound(up: string): string[] | undefined {
  if (up.length < 7) return undefined;
  const tail = (rest: string): string[] | undefined => {
    if (!rest) return [];
    for (let len = rest.length; len >= 4; len--) {
      const w = rest.slice(0, len);
      if (!vocabularyWord(w)) continue;
      const more = tail(rest.slice(len));
      if (more) return [w, ...more];
    }
    return undefined;
  };
  for (let head = 0; head <= up.length - 4; head++) {
    if (head === 1 || head === 2) continue;
    const rest = tail(up.slice(head));
    if (rest && rest.length + (head ? 1 : 0) >= 2) return head ? [up.slice(0, head), ...rest] : rest;
  }
  return undefined;
}

export function cleanToken(t: string): string {
  return foldDiacritics(t.toUpperCase()).replace(/[.,;:()[\]]/g, '');
}

/** Is the token a legal form (exact or, for long forms, with one OCR slip such as "8HD" for "BHD")? */
export function isLegalFormToken(token: string, fuzzy = true): boolean {
  const t = cleanToken(token);
  if (!t) return false;
  if (SINGLE_FORMS.has(t)) return true;
  if (!fuzzy) return false;
  for (const f of ['BHD', 'SDN', 'LTD', 'GMBH', 'UAB', 'ENTERPRISE', 'TRADING', 'BERHAD', 'SENDIRIAN']) {
    if (t.length >= 3 && Math.abs(t.length - f.length) <= 1 && levenshtein(t, f, 1) <= 1) return true;
  }
  return false;
}

/**
 * Index in `tokens` just past the last legal-form sequence ("SDN BHD", "S/B", "(M) SDN BHD"), or -1.
 * Strong forms only (those that end a company name): the weak "CO"/"AS"/"AB" are accepted only at the end.
 */
export function legalFormEnd(tokens: string[]): number {
  const up = tokens.map(cleanToken);
  let end = -1;
  for (let i = 0; i < up.length; i++) {
    const t = up[i]!;
    const next = up[i + 1] ?? '';
    const fuzzyBhd = t.length >= 3 && levenshtein(t, 'BHD', 1) <= 1 && /[BH8]/.test(t);
    if ((t === 'SDN' || levenshtein(t, 'SDN', 1) <= 1) && (next === 'BHD' || levenshtein(next, 'BHD', 1) <= 1)) {
      end = i + 2;
      i++;
    } else if (t === 'SDNBHD') end = i + 1;
    else if (t === 'S/B' || /^[5S$]\/[B8]$/.test(t) || (t === 'SB' && i === up.length - 1)) end = i + 1;
    else if (t === 'BHD' || t === 'BERHAD' || (fuzzyBhd && i > 0 && /^\(?M\)?$/.test(up[i - 1]!))) end = i + 1;
    else if (['LTD', 'LIMITED', 'PLC', 'LLC', 'LLP', 'INC', 'CORP', 'CORPORATION', 'GMBH', 'SARL', 'SRL', 'ENTERPRISE', 'ENTERPRISES', 'TRADING'].includes(t)) end = i + 1;
    // Long forms with one OCR slip: "ENTERFRISE", "TRADINC".
    else if (t.length >= 7 && oneSlipFrom(t, ['ENTERPRISE', 'ENTERPRISES', 'TRADING', 'LIMITED', 'CORPORATION'])) end = i + 1;
    else if (['CO', 'COMPANY', 'AG', 'SA', 'AS', 'AB', 'BV', 'NV', 'OY', 'SIA', 'OU', 'APS'].includes(t) && i === up.length - 1 && i > 0) end = i + 1;
  }
  return end;
}

/** Leading Lithuanian/other legal forms: "UAB Pavyzdys", "AB „Lietuvos paštas“", "MB Vilnis". */
export function leadingLegalForm(tokens: string[]): boolean {
  const t = cleanToken(tokens[0] ?? '');
  return ['UAB', 'AB', 'MB', 'II', 'IĮ', 'VSI', 'VŠĮ', 'KB', 'TUB', 'SIA', 'AS', 'OU'].includes(foldDiacritics(t));
}

/** Do the tokens start with a Malaysian legal form ("SDN BHD", "BHD", "BERHAD", "S/B"), read with a slip or not? */
function isMalaysianForm(tokens: string[]): boolean {
  const [first = '', second = ''] = tokens.map(cleanToken);
  const near = (t: string, form: string) => t === form || (t.length === form.length && levenshtein(t, form, 1) <= 1);
  return (near(first, 'SDN') && near(second, 'BHD')) || near(first, 'BHD') || first === 'BERHAD' || /^[5S]\/[B8]$/.test(first);
}

/** Fixes OCR slips in legal-form words ("SDN 8HD" → "SDN BHD", "SDN BND" → "SDN BHD"). */
export function fixLegalForms(name: string): string {
  const tokens = name.split(' ');
  for (let i = 0; i < tokens.length; i++) {
    const t = cleanToken(tokens[i]!);
    const prev = cleanToken(tokens[i - 1] ?? '');
    const trailingPunct = tokens[i]!.match(/[.,]*$/)?.[0] ?? '';
    if (t !== 'BHD' && t.length === 3 && levenshtein(t, 'BHD', 1) <= 1 && (prev === 'SDN' || /^\(?M\)?$/.test(prev))) {
      tokens[i] = `BHD${trailingPunct}`;
    }
    // "ENTERFRISE" → "ENTERPRISE": long legal-form words with one OCR slip.
    if (t.length >= 7 && /^[A-Z]+$/.test(tokens[i]!.replace(/[.,]+$/, ''))) {
      const canon = oneSlipFrom(t, ['ENTERPRISE', 'ENTERPRISES', 'TRADING', 'LIMITED', 'BERHAD', 'SENDIRIAN', 'CORPORATION'].filter((f) => f !== t));
      if (canon && !['ENTERPRISE', 'ENTERPRISES'].includes(t)) tokens[i] = `${canon}${trailingPunct}`;
    }
    // "(N) SDN BHD", "(H) BHD" → "(M) …": the bracketed letter before a Malaysian legal form is M (Malaysia), and
    // N and H are the letters thermal print loses an M's stroke to.
    if (/^[({[][NH][)}\]]$/.test(tokens[i]!) && isMalaysianForm(tokens.slice(i + 1))) tokens[i] = '(M)';
    // "5/B", "S/8" → "S/B"; "CO,", "GO." or "CP." before "(M)" → "CO.": the one abbreviation of two letters that
    // stands before a Malaysian company's "(M)" is CO.
    if (/^[5S$]\/[B8D]$/.test(tokens[i]!.replace(/[.,]+$/, '')) && tokens[i] !== 'S/B') tokens[i] = `S/B${trailingPunct}`;
    if ((/^[CG€(][O0][.,]?$/i.test(tokens[i]!) || /^C[A-Z][.,]$/.test(tokens[i]!)) && tokens[i] !== 'CO.' && /^[({]?M[)}]?$/i.test(tokens[i + 1] ?? '')) tokens[i] = 'CO.';
    if (t !== 'SDN' && t.length === 3 && levenshtein(t, 'SDN', 1) <= 1 && levenshtein(cleanToken(tokens[i + 1] ?? ''), 'BHD', 1) <= 1) {
      tokens[i] = `SDN${trailingPunct}`;
    }
    // After SDN: stray characters before BHD ("SDN L BHD", "SDN 1 BHD", "SDN L I BHD", "SDN LI BHD": specks or
    // slivers of the print read as letters or digits; nothing is printed between SDN and BHD), BHD with a letter
    // lost or added ("HD", "BHND"), or a word of three letters ending the name ("SDN HHI"): SDN (sendirian) is
    // always followed by BHD (berhad).
    let strays = 0;
    while (prev === 'SDN' && /^[\p{L}\d]{1,2}$/u.test(tokens[i + strays] ?? '') && cleanToken(tokens[i + strays]!) !== 'BHD') strays++;
    if (strays > 0 && cleanToken(tokens[i + strays] ?? '') === 'BHD') {
      tokens.splice(i, strays);
      i--;
      continue;
    }
    if (prev === 'SDN' && t !== 'BHD' && t.length >= 2 && t.length <= 4 && /^[A-Z8]+$/.test(t) && (t.length === 3 || levenshtein(t, 'BHD', 1) <= 1) && i === tokens.length - 1) {
      tokens[i] = `${/[a-z]/.test(tokens[i]!) ? 'Bhd' : 'BHD'}${trailingPunct}`;
    }
  }
  // A name ending on SDN lost its BHD: sendirian is always followed by berhad ("… RESTAURANT SDN", the line's end
  // cut off by the reading).
  const last = tokens[tokens.length - 1] ?? '';
  if (tokens.length >= 3 && cleanToken(last) === 'SDN') tokens.push(`${/[a-z]/.test(last) ? 'Bhd' : 'BHD'}${last.endsWith('.') ? '.' : ''}`);
  return tokens.join(' ');
}

/** A name without legal forms, punctuation and case: for matching names across documents. */
export function normaliseCompanyName(name: string): string {
  let s = foldDiacritics(name).toUpperCase();
  s = s.replace(/["'„“”«»`]/g, '').replace(/\(M\)/g, ' ');
  s = s.replace(/\bS\/B\b/g, ' ');
  const tokens = s
    .replace(/[^A-Z0-9&]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
  const forms = new Set([
    'SDN', 'BHD', 'BERHAD', 'SENDIRIAN', 'PTE', 'PVT', 'LTD', 'LIMITED', 'PLC', 'LLC', 'LLP', 'INC', 'CORP', 'CORPORATION',
    'GMBH', 'AG', 'SA', 'SAS', 'SARL', 'SRL', 'SPA', 'BV', 'NV', 'OY', 'AS', 'ASA', 'APS', 'UAB', 'AB', 'MB', 'II', 'VSI', 'KB',
    'TUB', 'SIA', 'OU', 'CO', 'COMPANY', 'THE', 'M',
  ]);
  const kept = tokens.filter((t) => !forms.has(t));
  return (kept.length ? kept : tokens).join(' ');
}
