import { describe, expect, it } from 'vitest';
import { cellText, chunk, columnLetter, detectColumns, lineOfServerRow, normalizeRows } from './columns';

describe('detectColumns', () => {
  it('finds name, number and e-mail headers in pt, en, es and tr, whatever the case and accents', () => {
    expect(detectColumns(['Nome', 'Número', 'E-mail'])).toEqual({ header: true, mapping: { name: 0, number: 1, email: 2 } });
    expect(detectColumns(['Email', 'Phone', 'Name'])).toEqual({ header: true, mapping: { name: 2, number: 1, email: 0 } });
    expect(detectColumns(['Nombre', 'Teléfono', 'Correo'])).toEqual({ header: true, mapping: { name: 0, number: 1, email: 2 } });
    expect(detectColumns(['İsim', 'Telefon', 'E-posta'])).toEqual({ header: true, mapping: { name: 0, number: 1, email: 2 } });
    expect(detectColumns(['ID', 'TELEFONE', 'Cidade', 'nome'])).toEqual({
      header: true,
      mapping: { name: 3, number: 1, email: null },
    });
  });

  it('reads headers made of several words by their strongest word', () => {
    expect(detectColumns(['Nome do contato', 'Telefone celular', 'E-mail do contato'])).toEqual({
      header: true,
      mapping: { name: 0, number: 1, email: 2 },
    });
    expect(detectColumns(['Contact name', 'Contact number', 'Contact email']).mapping).toEqual({ name: 0, number: 1, email: 2 });
    expect(detectColumns(['WhatsApp', 'Cliente']).mapping).toEqual({ name: 1, number: 0, email: null });
  });

  it('takes the first of two matching columns', () => {
    expect(detectColumns(['telefone', 'celular', 'nome']).mapping).toEqual({ name: 2, number: 0, email: null });
  });

  it('without a recognised header, assumes name, number, e-mail in the first columns', () => {
    expect(detectColumns(['Ana', '5511999990000', 'ana@example.com'])).toEqual({
      header: false,
      mapping: { name: 0, number: 1, email: 2 },
    });
    expect(detectColumns(['Ana', 5511999990000])).toEqual({ header: false, mapping: { name: 0, number: 1, email: null } });
    expect(detectColumns([])).toEqual({ header: false, mapping: { name: null, number: null, email: null } });
  });
});

describe('normalizeRows', () => {
  const mapping = { name: 0, number: 1, email: 2 };

  it('keeps the digits of numbers, lowercases e-mails, and numbers lines as the sheet shows them', () => {
    const rows = [
      ['Nome', 'Número', 'Email'],
      [' Ana ', '+55 (11) 99999-0000', 'ANA@Example.com'],
      ['Bia', 5511988880000, null],
    ];
    expect(normalizeRows(rows, mapping, true)).toEqual({
      candidates: [
        { line: 2, contact: { name: 'Ana', number: '5511999990000', email: 'ana@example.com' } },
        { line: 3, contact: { name: 'Bia', number: '5511988880000' } },
      ],
      errors: [],
      blank: 0,
    });
  });

  it('reports rows without a usable number, and numbers repeated in the file', () => {
    const rows = [
      ['Ana', ''],
      ['Bia', '1234-567'],
      ['Caio', '1'.repeat(51)],
      ['Duda', '5511999990000'],
      ['Duda again', '55 11 99999 0000'],
    ];
    const result = normalizeRows(rows, { name: 0, number: 1, email: null }, false);
    expect(result.candidates).toEqual([{ line: 4, contact: { name: 'Duda', number: '5511999990000' } }]);
    expect(result.errors).toEqual([
      { line: 1, issue: 'numberMissing' },
      { line: 2, issue: 'numberTooShort' },
      { line: 3, issue: 'numberTooLong' },
      { line: 5, issue: 'duplicateInFile' },
    ]);
  });

  it('skips blank lines, names a nameless contact by its number, drops invalid e-mails, cuts long names', () => {
    const rows = [
      ['', '', ''],
      [null, '12345678', 'not-an-email'],
      ['x'.repeat(300), '87654321', ''],
    ];
    const result = normalizeRows(rows, mapping, false);
    expect(result.blank).toBe(1);
    expect(result.candidates).toEqual([
      { line: 2, contact: { name: '12345678', number: '12345678' } },
      { line: 3, contact: { name: 'x'.repeat(250), number: '87654321' } },
    ]);
  });

  it('reads nothing from a field mapped to no column', () => {
    const result = normalizeRows([['Ana', '5511999990000']], { name: null, number: 1, email: null }, false);
    expect(result.candidates).toEqual([{ line: 1, contact: { name: '5511999990000', number: '5511999990000' } }]);
    expect(normalizeRows([['Ana', '5511999990000']], { name: 0, number: null, email: null }, false).errors).toEqual([
      { line: 1, issue: 'numberMissing' },
    ]);
  });
});

describe('cellText', () => {
  it('writes big integers without exponent and trims strings', () => {
    expect(cellText(5541998608485)).toBe('5541998608485');
    expect(cellText(1.5)).toBe('1.5');
    expect(cellText('  a ')).toBe('a');
    expect(cellText(null)).toBe('');
    expect(cellText(true)).toBe('true');
    expect(cellText(new Date('2024-01-02T00:00:00.000Z'))).toBe('2024-01-02T00:00:00.000Z');
  });
});

describe('chunk', () => {
  it('splits into consecutive chunks of at most the size', () => {
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunk([], 5000)).toEqual([]);
    expect(
      chunk(
        Array.from({ length: 12_001 }, (_v, i) => i),
        5000,
      ).map((part) => part.length),
    ).toEqual([5000, 5000, 2001]);
    expect(() => chunk([1], 0)).toThrow(RangeError);
  });
});

describe('lineOfServerRow', () => {
  it("maps the server's 1-based row in a chunk back to the sheet line", () => {
    const part = [
      { line: 7, contact: { name: 'a', number: '12345678' } },
      { line: 9, contact: { name: 'b', number: '12345679' } },
    ];
    expect(lineOfServerRow(part, 2)).toBe(9);
    expect(lineOfServerRow(part, 3)).toBeNull();
  });
});

describe('columnLetter', () => {
  it('names columns as spreadsheets do', () => {
    expect([0, 1, 25, 26, 27, 701, 702].map(columnLetter)).toEqual(['A', 'B', 'Z', 'AA', 'AB', 'ZZ', 'AAA']);
  });
});
