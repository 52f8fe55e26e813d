import { describe, expect, it } from 'vitest';
import { joinAddressLines } from '../../../lambdas/core/recognition/extract/address';

describe('joinAddressLines', () => {
  it('joins the printed lines with single spaces', () => {
    expect(joinAddressLines(['NO 8, JALAN 7/118B,', '  DESA TUN RAZAK', '56000 KUALA LUMPUR'])).toBe('NO 8, JALAN 7/118B, DESA TUN RAZAK 56000 KUALA LUMPUR');
  });

  it('keeps commas spaced as read (addresses print both "7/4,KAWASAN" and "290, JALAN")', () => {
    expect(joinAddressLines(['5-7,JALAN MAHAGONI 7/1', 'SHAH ALAM, 40150'])).toBe('5-7,JALAN MAHAGONI 7/1 SHAH ALAM, 40150');
  });

  it('writes a comma spaced on both sides against the word before it, and keeps one printed against the next', () => {
    expect(joinAddressLines(['LOT 1851-A & 1851-B, JALAN KPB 6 ,', 'KAWASAN PERINDUSTRIAN BALAKONG ,', '43300 SERI KEMBANGAN , SELANGOR'])).toBe(
      'LOT 1851-A & 1851-B, JALAN KPB 6, KAWASAN PERINDUSTRIAN BALAKONG, 43300 SERI KEMBANGAN, SELANGOR',
    );
    expect(joinAddressLines(['NO. 31G&33G, JALAN SETIA INDAH X ,U13/X', '40170 SETIA ALAM'])).toBe('NO. 31G&33G, JALAN SETIA INDAH X ,U13/X 40170 SETIA ALAM');
    // The document's own text is taken as written.
    expect(joinAddressLines(['JALAN KPB 6 ,', 'BALAKONG'], true)).toBe('JALAN KPB 6 , BALAKONG');
  });

  it('reads a full stop between the parts of an address as the comma it is printed as', () => {
    expect(joinAddressLines(['NO 290. JALAN AIR PANAS', 'BATU 5.51200 KUALA LUMPUR'])).toBe('NO 290, JALAN AIR PANAS BATU 5, 51200 KUALA LUMPUR');
    expect(joinAddressLines(['TAMAN SERDANG RAYA. 43300 SERI KEMBANGAN.'])).toBe('TAMAN SERDANG RAYA, 43300 SERI KEMBANGAN.');
    // Initials and a final full stop stay.
    expect(joinAddressLines(['TAMAN P. RAMLEE', 'KUALA LUMPUR.'])).toBe('TAMAN P. RAMLEE KUALA LUMPUR.');
  });

  it('sets apart words and numbers the reading ran together', () => {
    expect(joinAddressLines(['No.2&4,JALANHARMONI 3/2, TAMAN DESAHARMONI'])).toBe("No.2&4,JALAN HARMONI 3/2, TAMAN DESA HARMONI");
    expect(joinAddressLines(['Taman Sri Muda Seksyen25, Lot6', 'Batu5'])).toBe('Taman Sri Muda Seksyen 25, Lot 6 Batu 5');
    expect(joinAddressLines(['43300SERI KEMBANGAN', 'SELANGOR DARULEHSAN'])).toBe('43300 SERI KEMBANGAN SELANGOR DARUL EHSAN');
    // A word that only starts like an address word stays whole.
    expect(joinAddressLines(['JALAN BANDARAYA', 'LOTUS PLAZA'])).toBe('JALAN BANDARAYA LOTUS PLAZA');
  });

  it('puts back a word of a title-case address that the reading split into a lower-case piece', () => {
    expect(joinAddressLines(['Lot 3, Jalan Pe labur 23/1,', '40300 Shah Alam, Selangor.'])).toBe('Lot 3, Jalan Pelabur 23/1, 40300 Shah Alam, Selangor.');
    // A place name read with a letter lost stays the postcode's two words.
    expect(joinAddressLines(['Seksyen 25, 40400 Shah lam Selangor'])).toBe('Seksyen 25, 40400 Shah Alam Selangor');
    // Small words, and addresses in capitals, stay as read.
    expect(joinAddressLines(['No 7 Simpang off Batu Village, Jalan Ipoh'])).toBe('No 7 Simpang off Batu Village, Jalan Ipoh');
    expect(joinAddressLines(['LOT 3, JALAN PE LABUR 23/1'])).toBe('LOT 3, JALAN PE LABUR 23/1');
  });

  it('tells look-alike glyphs apart by the characters around them', () => {
    // A digit read for a letter inside a word; 0 anywhere in a word, 1, 5 and 8 between letters of a longer word.
    expect(joinAddressLines(['L0T 1851-A, N0.54, BATU 5', 'Ja1an SS21/39, 47400 Peta1ing Jaya, JALAN ANG5A'])).toBe(
      'LOT 1851-A, NO.54, BATU 5 Jalan SS21/39, 47400 Petaling Jaya, JALAN ANGSA',
    );
    // A letter O inside a number; l and I by the word's case.
    expect(joinAddressLines(['400O0 SHAH ALAM', 'Blk G, BIk G, JIn PJU, Jalan lpoh'])).toBe('40000 SHAH ALAM Blk G, Blk G, Jln PJU, Jalan Ipoh');
    expect(joinAddressLines(['NEAR ATMs', 'BANDAR BARu PERMAS JAYa, 81750 JOHOR BAHRu,JOHOr.'])).toBe('NEAR ATMs BANDAR BARU PERMAS JAYA, 81750 JOHOR BAHRU,JOHOR.');
    // 6 inside a longer word, 5 and 8 at the start of a word in capitals, 1 and 5 at its end.
    expect(joinAddressLines(['8ANDAR SETIA ALAM, SELAN6OR', '5ELANGOR, JALAN TAMPO1, DAMANSARA HEIGHT5'])).toBe(
      'BANDAR SETIA ALAM, SELANGOR SELANGOR, JALAN TAMPOI, DAMANSARA HEIGHTS',
    );
    // ...but not in codes, ordinals or a word that takes a number.
    expect(joinAddressLines(['PJU6A, 1ST FLOOR, SEKSYEN1, 5A JALAN'])).toBe('PJU6A, 1ST FLOOR, SEKSYEN 1, 5A JALAN');
    // One letter inside a number of three digits or more, where a digit looks like it.
    expect(joinAddressLines(['LOT P.T. 2B11, JALAN ANGSA', '15S8-TMN PUSAT KEPONG'])).toBe('LOT P.T. 2811, JALAN ANGSA 1558-TMN PUSAT KEPONG');
    // Codes that mix letters and digits stay as printed.
    expect(joinAddressLines(['UNIT G5B, U13/BG, UPTOWN3, 1ST FLOOR, LOT 4F-27, 31G&33G, PJU 1A/3, NO 12A34'])).toBe(
      'UNIT G5B, U13/BG, UPTOWN3, 1ST FLOOR, LOT 4F-27, 31G&33G, PJU 1A/3, NO 12A34',
    );
  });

  it('reads a digit in a word as the letter that makes a known word, anywhere in it', () => {
    expect(joinAddressLines(['40150 5HAH ALAM, 6ROUND FLOOR, KUALA 1UMPUR, MA1AYSIA'])).toBe('40150 SHAH ALAM, GROUND FLOOR, KUALA LUMPUR, MALAYSIA');
    expect(joinAddressLines(['J1N BESAR KEPON6, SG BES1', 'Leve1 6, Bangunan TH'])).toBe('JLN BESAR KEPONG, SG BESI Level 6, Bangunan TH');
    // Codes and ordinals stay.
    expect(joinAddressLines(['1ST FLOOR, PJU6A, SS15/4B, U13/BG'])).toBe('1ST FLOOR, PJU6A, SS15/4B, U13/BG');
  });

  it('reads an F between consonants as the E thin print lost a bar of', () => {
    expect(joinAddressLines(['JALAN SFTIA INDAH, SELANGOR DARUL FHSAN', 'OFF JALAN KFC, FLOOR 2, FRONT'])).toBe(
      'JALAN SETIA INDAH, SELANGOR DARUL EHSAN OFF JALAN KFC, FLOOR 2, FRONT',
    );
  });

  it('reads a mark inside a word as the letter that makes a known word', () => {
    expect(joinAddressLines(['NO.12,JA:AN SS4C/5,PETALING JAYA SEANGOR', 'KAWASAN PERIN)USTRIAN BALAKONG, JA_AN BESAR'])).toBe(
      'NO.12,JALAN SS4C/5,PETALING JAYA SELANGOR KAWASAN PERINDUSTRIAN BALAKONG, JALAN BESAR',
    );
    expect(joinAddressLines(["NO:12, D'ROSH SERVPORT"])).toBe("NO:12, D'ROSH SERVPORT");
  });

  it('puts right abbreviations and short words one look-alike letter off, when only one fits', () => {
    expect(joinAddressLines(['JIN BESAR, IOT 5, DFSA TUN RAZAK, IAMAN MELAWATI', '81100 JCHOR BAHRU'])).toBe(
      'JLN BESAR, LOT 5, DESA TUN RAZAK, TAMAN MELAWATI 81100 JOHOR BAHRU',
    );
    // Two letters are too few, English words stay, and MALL and HALL are both one letter from NALL.
    expect(joinAddressLines(['AEON SC, FIR, AEON NALL, NEAR ATMs'])).toBe('AEON SC, FIR, AEON NALL, NEAR ATMs');
  });

  it('writes an address word read a letter off as the address word it is', () => {
    expect(joinAddressLines(['Kawasan Perindustrlan Tampoi', 'MUKIN KAPAR 42100 KLANG', 'TANAN BERKELEY, Jaian Lapangan'])).toBe(
      'Kawasan Perindustrian Tampoi MUKIM KAPAR 42100 KLANG TAMAN BERKELEY, Jalan Lapangan',
    );
    // A word of a town's name read with one look-alike letter ("PUSAT", as in Pusat Bandar ...).
    expect(joinAddressLines(['1558-TMN FUSAT, JALAN PELABUR 23/1'])).toBe('1558-TMN PUSAT, JALAN PELABUR 23/1');
    // English words and names near no address word, or near two, stay.
    expect(joinAddressLines(['TAMAN INDUSTRIES, JALAN BATAI, JALAN TAMAR'])).toBe('TAMAN INDUSTRIES, JALAN BATAI, JALAN TAMAR');
  });

  it('puts back a narrow letter or a twin letter lost from a short address word', () => {
    expect(joinAddressLines(['Lot 50, Flor T2, Wsma UOA'])).toBe('Lot 50, Floor T2, Wisma UOA');
    // Only where one address word fits; English words and other letters lost stay.
    expect(joinAddressLines(['NO 5, SOUTH TOWER, TMAN JAYA'])).toBe('NO 5, SOUTH TOWER, TMAN JAYA');
  });

  it("takes a document's own text as written", () => {
    expect(joinAddressLines(['5-7,JALAN MAHAGONI', 'NO 290. JALAN'], true)).toBe('5-7,JALAN MAHAGONI NO 290. JALAN');
    expect(joinAddressLines(['L0T 5, Ja1an'], true)).toBe('L0T 5, Ja1an');
  });
});
