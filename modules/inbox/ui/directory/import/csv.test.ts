import { describe, expect, it } from 'vitest';
import { detectDelimiter, parseCsv } from './csv';

describe('parseCsv', () => {
  it('reads comma-separated rows with LF or CRLF line ends', () => {
    expect(parseCsv('name,number\nAna,5511999990000\r\nBia,5511988880000\n')).toEqual([
      ['name', 'number'],
      ['Ana', '5511999990000'],
      ['Bia', '5511988880000'],
    ]);
  });

  it('keeps delimiters, quotes and line breaks inside quoted fields', () => {
    expect(parseCsv('"Silva, Ana","say ""hi""","two\nlines"\n')).toEqual([['Silva, Ana', 'say "hi"', 'two\nlines']]);
  });

  it('detects semicolons and tabs, the separators of pt/es/tr spreadsheets', () => {
    expect(parseCsv('nome;telefone\nAna;5511999990000')).toEqual([
      ['nome', 'telefone'],
      ['Ana', '5511999990000'],
    ]);
    expect(parseCsv('name\tphone\nAna\t5511999990000')).toEqual([
      ['name', 'phone'],
      ['Ana', '5511999990000'],
    ]);
  });

  it('drops a byte-order mark and keeps empty cells and blank lines', () => {
    expect(parseCsv('\uFEFFname,number,email\nAna,,\n\nBia,123,')).toEqual([
      ['name', 'number', 'email'],
      ['Ana', '', ''],
      [''],
      ['Bia', '123', ''],
    ]);
  });

  it('ends the last row without a trailing line break and reads an empty text as no rows', () => {
    expect(parseCsv('a,b')).toEqual([['a', 'b']]);
    expect(parseCsv('')).toEqual([]);
  });
});

describe('detectDelimiter', () => {
  it('counts only the first line, outside quotes', () => {
    expect(detectDelimiter('"a;b;c",d,e\nx;y;z;w')).toBe(',');
    expect(detectDelimiter('a;b,c;d')).toBe(';');
    expect(detectDelimiter('single column')).toBe(',');
  });
});
