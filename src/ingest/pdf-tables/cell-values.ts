/** A cell read as a number, with the unit written around it (`$12`, `3.5 kg`, `92%`, `392k`). */
export interface CellNumber {
  value: number;
  unit: string;
}

const NUMBER_WITH_UNIT =
  /^([$€£¥])?\s?([+\-−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|[+\-−]?\.\d+)\s?(%|[A-Za-zµ°][A-Za-z/°²³µ]{0,5})?$/u;
/** What tables write for "no value". */
const EMPTY = /^(-|–|—|n\/a|N\/A|na|NA|[†‡*§¶]+)$/;

export function isEmptyCell(text: string): boolean {
  return text === '' || EMPTY.test(text);
}

/** The number in a cell and its unit (currency sign or suffix), or undefined when the cell is not one number. */
export function parseCellNumber(text: string): CellNumber | undefined {
  const match = NUMBER_WITH_UNIT.exec(text.trim());
  if (!match) return undefined;
  const value = Number(match[2]!.replace(/,/g, '').replace('−', '-'));
  if (!Number.isFinite(value)) return undefined;
  return { value, unit: match[1] ?? match[3] ?? '' };
}

/**
 * A column is numeric when every value in it is a number with one and the same unit (or none); then its cells become
 * numbers and the unit goes into the column name (`Price ($)`), unless the header already names it.
 */
export function numericColumn(
  values: readonly string[],
): { unit: string; values: (number | null)[]; integer: boolean } | undefined {
  let unit: string | undefined;
  let integer = true;
  let count = 0;
  const numbers: (number | null)[] = [];
  for (const text of values) {
    if (isEmptyCell(text)) {
      numbers.push(null);
      continue;
    }
    const parsed = parseCellNumber(text);
    if (!parsed) return undefined;
    if (unit !== undefined && parsed.unit !== unit) return undefined;
    unit = parsed.unit;
    if (!Number.isSafeInteger(parsed.value) || /\./.test(text)) integer = false;
    numbers.push(parsed.value);
    count += 1;
  }
  return count === 0 ? undefined : { unit: unit ?? '', values: numbers, integer };
}
