/**
 * CSV for spreadsheet programs: RFC 4180 lines (every cell quoted, CRLF), and a file that opens with a
 * byte-order mark so they read it as UTF-8.
 */
export function csvFile(header: string[], lines: string[]): string {
  return `\uFEFF${csvLine(header)}${lines.join('')}`;
}

export function csvLine(cells: string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/**
 * A quoted cell. One that a spreadsheet would run as a formula (starting with = + - @, or a tab or carriage
 * return that some programs skip before looking) gets a leading apostrophe, so it is shown as text (OWASP
 * "CSV injection"): names and addresses come from shoppers, parcel data from the carrier.
 */
function csvCell(value: string): string {
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${text.replace(/"/g, '""')}"`;
}
