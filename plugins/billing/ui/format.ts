/** An amount in reais as the product shows money: BRL, Brazilian style (R$ 1.234,50), whatever the language. */
export const brl = (value: string | number) =>
  new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(Number(value));

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * An invoice's date as the product shows it: dd/MM/yy HH:mm (docs/product/administration.md "Constants").
 * A calendar day (`YYYY-MM-DD`, a due date) is its midnight; a timestamp is shown in the browser's zone.
 */
export function invoiceDate(value: string): string {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (day) return `${day[3]}/${day[2]}/${day[1]?.slice(2)} 00:00`;
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return value;
  return `${pad(at.getDate())}/${pad(at.getMonth() + 1)}/${String(at.getFullYear()).slice(2)} ${pad(at.getHours())}:${pad(at.getMinutes())}`;
}
