/** A count with its noun ("1 report", "3 reports") for core's and the CLI's messages, never "report(s)". */
export function plural(value: number, one: string, many = `${one}s`): string {
  return `${value} ${value === 1 ? one : many}`;
}
